/// An ordered collection of identified elements, reached by identifier rather than by index
/// (TCA's `IdentifiedArrayOf`).
///
/// Identifiers are unique: appending an element whose identifier is present replaces it in place.
public struct IdentifiedArray<Element: Identifiable & Sendable>: Sendable, RandomAccessCollection
where Element.ID: Sendable {
    /// The elements in order.
    public private(set) var elements: [Element]
    private var positions: [Element.ID: Int]

    /// Creates an empty collection.
    public init() {
        self.elements = []
        self.positions = [:]
    }

    /// Creates a collection; a later element with an identifier already seen replaces the earlier.
    public init(_ elements: some Sequence<Element>) {
        self.elements = []
        self.positions = [:]
        for element in elements { append(element) }
    }

    /// The position of the first element.
    public var startIndex: Int { elements.startIndex }
    /// The position after the last element.
    public var endIndex: Int { elements.endIndex }

    /// The element at `position`.
    public subscript(position: Int) -> Element {
        elements[position]
    }

    /// The identifiers in order.
    public var ids: [Element.ID] { elements.map(\.id) }

    /// The element with `id`, or `nil`; setting `nil` removes it.
    ///
    /// - Complexity: O(1) to read or replace; O(n) to remove.
    public subscript(id id: Element.ID) -> Element? {
        get { positions[id].map { elements[$0] } }
        set {
            if let newValue {
                precondition(newValue.id == id, "the element's identifier must match the subscript's")
                if let position = positions[id] {
                    elements[position] = newValue
                } else {
                    append(newValue)
                }
            } else if let position = positions.removeValue(forKey: id) {
                elements.remove(at: position)
                for index in position..<elements.count { positions[elements[index].id] = index }
            }
        }
    }

    /// Appends `element`, or replaces the element with its identifier.
    public mutating func append(_ element: Element) {
        if let position = positions[element.id] {
            elements[position] = element
        } else {
            positions[element.id] = elements.count
            elements.append(element)
        }
    }

    /// Changes the element with `id` in place; does nothing when there is none.
    ///
    /// - Returns: what `body` returned, or `nil` without such an element.
    @discardableResult
    public mutating func modify<Result>(id: Element.ID, _ body: (inout Element) -> Result) -> Result? {
        guard let position = positions[id] else { return nil }
        return body(&elements[position])
    }
}

extension IdentifiedArray: Equatable where Element: Equatable {
    /// Same elements in the same order.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.elements == rhs.elements
    }
}

extension IdentifiedArray: ExpressibleByArrayLiteral {
    /// Creates a collection from a literal.
    public init(arrayLiteral elements: Element...) {
        self.init(elements)
    }
}

extension IdentifiedArray: CustomStringConvertible {
    /// The elements, as an array prints them.
    public var description: String { elements.description }
}
