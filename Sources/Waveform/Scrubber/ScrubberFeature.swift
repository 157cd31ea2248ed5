import Controls

/// A waveform scrubber: the bars, the playhead, and dragging or tapping to seek.
///
/// The pointer's x (from the scrubber's left edge) maps to progress over the width that layout
/// reported with ``Action/laidOut(width:)``, clamped to 0…1; until then there is no width and
/// pointer actions do nothing. A drag moves the shown progress under the finger from the first
/// touch, as the seed's `DragGesture(minimumDistance: 0)` does, and asks for one seek when it
/// ends (``Action/Delegate/seekRequested(_:)``), not one per move, so that the player is not
/// flooded. While the finger moves, each time it enters another bar the scrubber says so
/// (``Action/Delegate/dragCrossedBar(_:)``), for the light haptic tick the seed plays, once per
/// bar rather than once per move. Playback's progress updates are kept but not shown while a drag is on, so that the
/// playhead does not jump away from the finger; a cancelled drag shows the latest of them again.
public struct ScrubberFeature: Reducer {
    /// How far one accessibility increment or decrement moves the playhead: 5 %.
    public static let accessibilityStep = 0.05

    /// Creates the scrubber reducer.
    public init() {}

    /// Applies the scrubber's actions.
    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .laidOut(let width):
            state.width = width.isFinite ? max(0, width) : 0
            return .none
        case .barsLoaded(let bars):
            state.bars = bars
            return .none
        case .playbackProgressed(let progress):
            guard !progress.isNaN else { return .none }
            state.playbackProgress = progress.clamped(to: 0...1)
            if !state.isDragging {
                state.progress = state.playbackProgress
            }
            return .none
        case .dragStarted(let x):
            guard let progress = state.progress(atX: x) else { return .none }
            state.isDragging = true
            state.progress = progress
            return .none
        case .dragMoved(let x):
            guard state.isDragging, let progress = state.progress(atX: x) else { return .none }
            let before = state.barIndex(at: state.progress)
            state.progress = progress
            guard let after = state.barIndex(at: progress), after != before else { return .none }
            return .send(.delegate(.dragCrossedBar(after)))
        case .dragEnded(let x):
            guard state.isDragging else { return .none }
            state.isDragging = false
            if let progress = state.progress(atX: x) {
                state.progress = progress
            }
            return seek(&state, to: state.progress)
        case .dragCancelled:
            guard state.isDragging else { return .none }
            state.isDragging = false
            state.progress = state.playbackProgress
            return .none
        case .tapped(let x):
            guard !state.isDragging, let progress = state.progress(atX: x) else { return .none }
            return seek(&state, to: progress)
        case .accessibilityIncremented, .accessibilityDecremented:
            guard !state.isDragging else { return .none }
            let step = action == .accessibilityIncremented ? Self.accessibilityStep : -Self.accessibilityStep
            return seek(&state, to: (state.progress + step).clamped(to: 0...1))
        case .delegate:
            return .none
        }
    }

    /// Shows `progress` as the playback position (the player will confirm it) and asks to seek.
    private func seek(_ state: inout State, to progress: Double) -> Effect<Action> {
        state.progress = progress
        state.playbackProgress = progress
        return .send(.delegate(.seekRequested(progress)))
    }
}
