/// The description of a parameter: everything but its value. A tree is built from these.
///
/// Values are in the parameter's own units. ``ParameterTree/init(children:)`` checks them (see
/// ``ParameterTreeError``); a spec on its own is just data.
public struct ParameterSpec: Sendable, Hashable {
    /// Permanent identifier, `[A-Za-z0-9_-]+`, unique among siblings.
    public var identifier: String
    /// The name shown to users.
    public var displayName: String
    /// Shorter names for narrow places, used by ``Parameter/displayName(withLength:)``.
    public var shortNames: [String]
    /// The 64-bit address, unique in the tree.
    public var address: ParameterAddress
    /// The lower end of the range.
    public var minValue: ParameterValue
    /// The upper end of the range.
    public var maxValue: ParameterValue
    /// The value a new tree starts with, and `reset` returns to.
    public var defaultValue: ParameterValue
    /// The unit.
    public var unit: ParameterUnit
    /// The unit's name for a custom unit; `nil` uses the unit's symbol.
    public var unitName: String?
    /// The option bits, including the display scale.
    public var flags: ParameterFlags
    /// One string per integer value from `minValue` up, for indexed parameters.
    public var valueStrings: [String]
    /// Addresses of parameters that may change as a side effect of this one.
    public var dependentParameters: [ParameterAddress]

    /// Creates a parameter description. Flags default to readable and writable.
    public init(
        identifier: String, displayName: String, address: ParameterAddress,
        minValue: ParameterValue, maxValue: ParameterValue, defaultValue: ParameterValue? = nil,
        unit: ParameterUnit = .generic, unitName: String? = nil, flags: ParameterFlags = [.readable, .writable],
        valueStrings: [String] = [], dependentParameters: [ParameterAddress] = [], shortNames: [String] = []
    ) {
        self.identifier = identifier
        self.displayName = displayName
        self.shortNames = shortNames
        self.address = address
        self.minValue = minValue
        self.maxValue = maxValue
        self.defaultValue = defaultValue ?? minValue
        self.unit = unit
        self.unitName = unitName
        self.flags = flags
        self.valueStrings = valueStrings
        self.dependentParameters = dependentParameters
    }

    /// The display scale, read from and written to ``flags``.
    public var taper: ParameterTaper {
        get { flags.taper }
        set { flags.taper = newValue }
    }
}
