/// An effect identifier placed inside a scope (see ``Effect/scoped(_:)``).
struct ScopedEffectID: Hashable, Sendable {
    var scope: EffectID
    var id: EffectID
}
