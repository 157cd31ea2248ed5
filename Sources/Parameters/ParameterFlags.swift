/// The option bits of a parameter, with the bit layout of AudioUnitParameterOptions (CONTROLS.md §6).
///
/// The display scale (bits 16–18 and bit 22) is also available as a ``ParameterTaper`` through
/// ``taper``.
public struct ParameterFlags: OptionSet, Sendable, Hashable {
    public var rawValue: UInt32

    /// Creates flags from the raw AudioUnitParameterOptions bits.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// The name is released by the host (kAudioUnitParameterFlag_CFNameRelease).
    public static let cfNameRelease = ParameterFlags(rawValue: 1 << 4)
    /// Presets skip this parameter.
    public static let omitFromPresets = ParameterFlags(rawValue: 1 << 13)
    /// Hosts may plot the parameter's history.
    public static let plotHistory = ParameterFlags(rawValue: 1 << 14)
    /// The parameter is a meter: the plug-in writes it, users only read it.
    public static let meterReadOnly = ParameterFlags(rawValue: 1 << 15)
    /// Display scale: square root (value 1 in bits 16–18).
    public static let displaySquareRoot = ParameterFlags(rawValue: 1 << 16)
    /// Display scale: squared (value 2 in bits 16–18).
    public static let displaySquared = ParameterFlags(rawValue: 2 << 16)
    /// Display scale: cubed (value 3 in bits 16–18).
    public static let displayCubed = ParameterFlags(rawValue: 3 << 16)
    /// Display scale: cube root (value 4 in bits 16–18).
    public static let displayCubeRoot = ParameterFlags(rawValue: 4 << 16)
    /// Display scale: exponential (value 5 in bits 16–18).
    public static let displayExponential = ParameterFlags(rawValue: 5 << 16)
    /// The parameter belongs to a clump of related parameters.
    public static let hasClump = ParameterFlags(rawValue: 1 << 20)
    /// The parameter provides strings for its values.
    public static let valuesHaveStrings = ParameterFlags(rawValue: 1 << 21)
    /// Display scale: logarithmic (CONTROLS.md 1.1).
    public static let displayLogarithmic = ParameterFlags(rawValue: 1 << 22)
    /// Changes should be applied at high resolution.
    public static let isHighResolution = ParameterFlags(rawValue: 1 << 23)
    /// Changes are not real-time safe.
    public static let nonRealTime = ParameterFlags(rawValue: 1 << 24)
    /// The plug-in can ramp the parameter.
    public static let canRamp = ParameterFlags(rawValue: 1 << 25)
    /// Shown only in expert mode.
    public static let expertMode = ParameterFlags(rawValue: 1 << 26)
    /// The name is a CFString.
    public static let hasCFNameString = ParameterFlags(rawValue: 1 << 27)
    /// A global meta parameter.
    public static let isGlobalMeta = ParameterFlags(rawValue: 1 << 28)
    /// An element meta parameter.
    public static let isElementMeta = ParameterFlags(rawValue: 1 << 29)
    /// The value can be read.
    public static let readable = ParameterFlags(rawValue: 1 << 30)
    /// The value can be written by users (the server refuses writes to a parameter without it).
    public static let writable = ParameterFlags(rawValue: 1 << 31)

    /// The bits that encode the display scale: `(7 << 16) | (1 << 22)`.
    public static let displayMask = ParameterFlags(rawValue: (7 << 16) | (1 << 22))

    /// The flags of the non-display-scale options with their tree-file names, in bit order.
    public static let named: [(name: String, flag: ParameterFlags)] = [
        ("cfNameRelease", .cfNameRelease), ("omitFromPresets", .omitFromPresets), ("plotHistory", .plotHistory),
        ("meterReadOnly", .meterReadOnly), ("hasClump", .hasClump), ("valuesHaveStrings", .valuesHaveStrings),
        ("isHighResolution", .isHighResolution), ("nonRealTime", .nonRealTime), ("canRamp", .canRamp),
        ("expertMode", .expertMode), ("hasCFNameString", .hasCFNameString), ("isGlobalMeta", .isGlobalMeta),
        ("isElementMeta", .isElementMeta), ("readable", .readable), ("writable", .writable),
    ]

    /// The display scale encoded in these flags. Logarithmic wins over the bits 16–18 if both are set.
    public var taper: ParameterTaper {
        get {
            if contains(.displayLogarithmic) { return .logarithmic }
            switch (rawValue >> 16) & 7 {
            case 1: return .squareRoot
            case 2: return .squared
            case 3: return .cubed
            case 4: return .cubeRoot
            case 5: return .exponential
            default: return .linear
            }
        }
        set {
            subtract(.displayMask)
            formUnion(newValue.displayFlags)
        }
    }
}
