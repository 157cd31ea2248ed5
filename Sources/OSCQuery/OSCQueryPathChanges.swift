/// What changed between two namespaces' paths, for a tree reload: the addresses added and removed,
/// and the methods whose attributes changed.
///
/// Containers count like methods, and a node that turned from one kind into the other is both
/// removed and added. Values are not compared: a reload keeps them.
public struct OSCQueryPathChanges: Sendable, Hashable {
    /// Paths only the new namespace has, depth first: each container before what it holds.
    public var added: [String]
    /// Paths only the old namespace has, deepest first: what a container holds before the container.
    public var removed: [String]
    /// Methods in both whose attributes differ (range, unit, access, description, value steps).
    public var changed: [String]

    /// Compares the paths of `old` and `new`.
    /// - Complexity: O(n + m) in the two namespaces' node counts.
    public init(from old: OSCQueryNamespace, to new: OSCQueryNamespace) {
        var oldNodes: [String: OSCQueryNode] = [:]
        for node in old.nodes.dropFirst() { oldNodes[node.path] = node }
        var newNodes: [String: OSCQueryNode] = [:]
        for node in new.nodes.dropFirst() { newNodes[node.path] = node }
        func kept(_ node: OSCQueryNode, in others: [String: OSCQueryNode]) -> Bool {
            others[node.path].map { $0.isContainer == node.isContainer } ?? false
        }
        added = new.nodes.dropFirst().filter { !kept($0, in: oldNodes) }.map(\.path)
        removed = old.nodes.dropFirst().reversed().filter { !kept($0, in: newNodes) }.map(\.path)
        changed = new.nodes.dropFirst().filter { node in
            guard !node.isContainer, let before = oldNodes[node.path], !before.isContainer else { return false }
            let (was, now) = (old.attributes(of: before), new.attributes(of: node))
            return was.map(\.key) != now.map(\.key) || was.map(\.value) != now.map(\.value)
        }.map(\.path)
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty }

    /// The notifications that tell a client about these changes.
    ///
    /// Only the topmost of a removed or added subtree is named (a `PATH_ADDED` of a container
    /// carries what it holds, and a `PATH_REMOVED` removes it): removals first, then additions.
    /// When a method's attributes changed, or more than `limit` notifications would be needed,
    /// it is one `PATH_CHANGED "/"` instead: read the namespace again.
    public func notifications(limit: Int = 64) -> [OSCQueryNotification] {
        if isEmpty { return [] }
        let removedRoots = Self.topmost(removed)
        let addedRoots = Self.topmost(added)
        if !changed.isEmpty || removedRoots.count + addedRoots.count > limit { return [.pathChanged("/")] }
        return removedRoots.map { .pathRemoved($0) } + addedRoots.map { .pathAdded($0) }
    }

    /// The paths whose parent is not in `paths`, in their order.
    private static func topmost(_ paths: [String]) -> [String] {
        let all = Set(paths)
        return paths.filter { path in
            guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return true }
            return !all.contains(String(path[..<slash]))
        }
    }
}
