import Parameters

/// One section of a surface: a top-level group's controls under its display name, or the
/// parameters outside any group, untitled, first (SURFACES.md §1).
public struct SurfaceSection: Sendable, Equatable {
    /// A control to lay out: a knob or a toggle for a parameter.
    public struct Item: Sendable, Equatable {
        /// Whether it is a knob or a toggle.
        public var kind: SurfaceControlKind
        /// The control's identifier in the store (the parameter's address).
        public var id: UInt64
    }

    /// The group's display name, or `nil` for the untitled first section.
    public var title: String?
    /// The controls in tree order.
    public var items: [Item]

    /// Creates a section.
    public init(title: String?, items: [Item]) {
        self.title = title
        self.items = items
    }

    /// The sections of `tree`: its parameters outside groups first, then one per top-level group
    /// (with the parameters of its subgroups), in tree order; empty sections are left out.
    public static func sections(of tree: ParameterTree) -> [SurfaceSection] {
        var loose: [Item] = []
        var sections: [SurfaceSection] = []
        for node in tree.children {
            if let parameter = node.parameter {
                loose.append(item(parameter))
            } else if let group = node.group {
                let items = group.allParameters.map(item)
                if !items.isEmpty { sections.append(SurfaceSection(title: group.displayName, items: items)) }
            }
        }
        return (loose.isEmpty ? [] : [SurfaceSection(title: nil, items: loose)]) + sections
    }

    private static func item(_ parameter: Parameter) -> Item {
        Item(kind: parameter.unit == .boolean ? .toggle : .knob, id: parameter.address)
    }
}

/// What kind of control a parameter gets: booleans are toggles, everything else is a knob.
public enum SurfaceControlKind: Sendable, Hashable {
    /// A knob with an arc.
    case knob
    /// An on/off toggle.
    case toggle
}
