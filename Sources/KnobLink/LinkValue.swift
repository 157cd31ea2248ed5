/// One value carried over a link: a parameter's address without the root (each instance adds its
/// own, rule 9.9) and its normalised value 0…1.
public struct LinkValue: Sendable, Hashable {
    /// The address without the root: `/knob/gain`.
    public var address: String
    /// The normalised value.
    public var value: Float

    /// A value for `address`.
    public init(address: String, value: Float) {
        self.address = address
        self.value = value
    }
}
