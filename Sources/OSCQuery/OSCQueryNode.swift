/// One node of the namespace as laid out once when the namespace is built: where its JSON sits
/// in the namespace's template, and what it covers.
struct OSCQueryNode: Sendable {
    /// `FULL_PATH`, the root prefix included (`/inst1/knob/gain`); `/` for the root.
    let path: String
    /// The parameter's position in `ParameterTree.allParameters` for a method; `nil` for a container.
    let parameter: Int?
    /// The parameters below (a container) or the one parameter (a method); contiguous, depth first.
    let parameterRange: Range<Int>
    /// A container's `DESCRIPTION`. A node keeps no other attribute: the namespace makes them
    /// again from the parameter when asked (``OSCQueryNamespace/attributes(of:)``), where a list
    /// per method took 0.4 MiB of a 1,000-parameter server.
    let description: String?
    /// The bytes of the node's JSON object in the template.
    var bytes: Range<Int> = 0..<0
    /// The value slots inside ``bytes``.
    var slots: Range<Int> = 0..<0
    /// The bytes of the `CONTENTS` object (a container's), and its slots.
    var contentsBytes: Range<Int>?
    var contentsSlots: Range<Int> = 0..<0

    var isContainer: Bool { parameter == nil }
}

/// Where a parameter's current value goes in the template: `offset` is the byte between `[` and `]`.
struct OSCQueryValueSlot: Sendable {
    let offset: Int
    let parameter: Int
}
