import Parameters

/// A parameter's addresses under the server's root, as text and as padded OSC strings, built once.
struct ParameterAddresses {
    /// `P`, with the root.
    let value: String
    let valueBytes: [UInt8]
    let rawBytes: [UInt8]
    let strBytes: [UInt8]
    let touchBytes: [UInt8]

    init(parameter: Parameter, root: String) {
        value = root + parameter.oscAddress
        valueBytes = Self.padded(value)
        rawBytes = Self.padded(value + "/raw")
        strBytes = Self.padded(value + "/str")
        touchBytes = Self.padded(value + "/touch")
    }

    /// The string's UTF-8 bytes, a NUL, and NULs up to a multiple of 4.
    static func padded(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8)
        bytes.append(0)
        while bytes.count % 4 != 0 { bytes.append(0) }
        return bytes
    }
}
