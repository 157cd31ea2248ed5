/// A parameter's address: 64 bits, unique within its tree (AUParameterAddress).
public typealias ParameterAddress = UInt64
/// A parameter's value in its own units (AUValue: 32-bit float).
public typealias ParameterValue = Float

/// One parameter of a ``ParameterTree``: a value with its range, unit, flags and names.
///
/// Everything but the value and the hooks is immutable. Values may be read and set from any
/// thread; see ``setValue(_:originator:eventType:)``.
public final class Parameter: Sendable {
    /// Permanent identifier, unique among siblings.
    public let identifier: String
    /// The identifiers from the top level down, joined with "." (`"knob.gain"`).
    public let keyPath: String
    /// The OSC address of the parameter without a root prefix (`"/knob/gain"`), PROTOCOL.md §2.
    public let oscAddress: String
    /// The name shown to users.
    public let displayName: String
    /// Shorter names, used by ``displayName(withLength:)``.
    public let shortNames: [String]
    /// The address, unique in the tree.
    public let address: ParameterAddress
    /// The lower end of the range.
    public let minValue: ParameterValue
    /// The upper end of the range.
    public let maxValue: ParameterValue
    /// The value the tree starts with and ``reset(originator:)`` returns to.
    public let defaultValue: ParameterValue
    /// The unit.
    public let unit: ParameterUnit
    /// The unit's name: the spec's name for a custom unit, else the unit's symbol.
    public let unitName: String
    /// The option bits.
    public let flags: ParameterFlags
    /// One string per integer value from ``minValue`` up, for indexed parameters.
    public let valueStrings: [String]
    /// Addresses of parameters that may change as a side effect of this one.
    public let dependentParameters: [ParameterAddress]
    /// The position of the parameter in ``ParameterTree/allParameters`` (depth-first order).
    public let index: Int
    /// The display formatter for the unit (CONTROLS.md 1.7).
    public let formatter: ValueFormatter
    /// The value ⇄ norm transform of the range and the taper.
    public let transform: NormValueTransform
    /// The description this parameter was built from.
    public let spec: ParameterSpec

    let storage: ParameterStorage

    init(spec: ParameterSpec, keyPath: String, index: Int, storage: ParameterStorage) {
        identifier = spec.identifier
        self.keyPath = keyPath
        oscAddress = "/" + keyPath.split(separator: ".").joined(separator: "/")
        displayName = spec.displayName
        shortNames = spec.shortNames
        address = spec.address
        minValue = spec.minValue
        maxValue = spec.maxValue
        defaultValue = spec.defaultValue
        unit = spec.unit
        unitName = spec.unitName ?? spec.unit.symbol
        flags = spec.flags
        valueStrings = spec.valueStrings
        dependentParameters = spec.dependentParameters
        self.index = index
        formatter = ValueFormatter.for(spec.unit)
        transform = NormValueTransform(
            minimumValue: Double(spec.minValue), maximumValue: Double(spec.maxValue), taper: spec.flags.taper)
        self.spec = spec
        self.storage = storage
    }

    /// The display scale.
    public var taper: ParameterTaper { flags.taper }

    /// Whether users may write the value (the ``ParameterFlags/writable`` flag, and not a meter).
    public var isWritable: Bool { flags.contains(.writable) && !flags.contains(.meterReadOnly) }

    /// A name that fits in `length` characters.
    ///
    /// The nearest ``ParameterTree/implementorDisplayNameWithLengthCallback`` hook decides if one is set.
    /// Otherwise the longest of the display name and the short names that fits, else the
    /// shortest of them cut to `length`.
    public func displayName(withLength length: Int) -> String {
        if let hook = storage.resolvedHook(forParameter: index, { $0.displayNameWithLength }) {
            return hook(.parameter(self), length)
        }
        return Parameter.fit([displayName] + shortNames, length)
    }

    static func fit(_ names: [String], _ length: Int) -> String {
        let length = max(0, length)
        if let best = names.filter({ $0.count <= length }).max(by: { $0.count < $1.count }) { return best }
        let shortest = names.min(by: { $0.count < $1.count }) ?? ""
        return String(shortest.prefix(length))
    }
}

extension Parameter: CustomStringConvertible {
    /// `keyPath@address = value`.
    public var description: String { "\(keyPath)@\(address) = \(value)" }
}
