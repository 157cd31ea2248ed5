/// Turns the points of one drag gesture into track actions.
///
/// The first point starts the drag (``TrackFeature/Action/dragStarted(_:)`` with the current
/// norm); each later point sends ``TrackFeature/Action/dragChanged(_:)`` with the norm moved by
/// ``KnobDragScaling``; ``ended(norm:)`` sends ``TrackFeature/Action/dragEnded(_:)``.
public struct KnobDragTracker: Sendable, Hashable {
    /// The math for the track being dragged.
    public var scaling: KnobDragScaling
    /// The last point seen, or `nil` before the drag starts.
    public private(set) var previous: ControlPoint?

    /// Creates a tracker for a track.
    public init(scaling: KnobDragScaling) {
        self.scaling = scaling
    }

    /// The action for a new point of the gesture.
    ///
    /// - Parameters:
    ///   - point: where the pointer is now, in the track's coordinates.
    ///   - norm: the knob's current norm.
    public mutating func moved(to point: ControlPoint, norm: Double) -> TrackFeature.Action {
        defer { previous = point }
        guard let previous else {
            return .dragStarted(norm)
        }
        return .dragChanged(scaling.norm(after: norm, from: previous, to: point))
    }

    /// The action that ends the gesture; the tracker is ready for the next one.
    public mutating func ended(norm: Double) -> TrackFeature.Action {
        previous = nil
        return .dragEnded(norm)
    }
}
