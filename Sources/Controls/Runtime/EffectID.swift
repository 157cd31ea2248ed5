/// An identifier that names a cancellable effect.
///
/// Any `Hashable & Sendable` value can name an effect (a `String`, a `UUID`, an enum case); two
/// identifiers are equal when their wrapped values are equal and of the same type.
public struct EffectID: Hashable, @unchecked Sendable {
    // `AnyHashable` is not `Sendable`; the initialiser only accepts sendable values, so the
    // box never holds anything that is unsafe to share.
    private let base: AnyHashable

    /// Wraps a sendable hashable value.
    public init(_ base: some Hashable & Sendable) {
        if let id = base as? EffectID {
            self = id
        } else {
            self.base = AnyHashable(base)
        }
    }
}

extension EffectID: CustomStringConvertible {
    /// The wrapped value's description.
    public var description: String { String(describing: base.base) }
}
