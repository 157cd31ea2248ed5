import Controls
import Locking
import Parameters
import Testing

@testable import TerminalUI

@Suite struct SurfaceControllerTests {
    let tree: ParameterTree
    let clock = TestClock()
    let controller: SurfaceController

    init() throws {
        tree = try SurfaceFixtures.tree()
        controller = SurfaceFixtures.controller(tree, clock: clock)
    }

    private func value(_ address: ParameterAddress) -> Float {
        tree.parameter(withAddress: address)!.value
    }

    private func keys(_ keys: Key...) {
        keys.forEach { controller.handle(.key($0)) }
    }

    @Test func keysStepTheFocusedKnob() {
        keys(.character("l"))
        #expect(value(1) == 1)
        keys(.character("L"), .right(shift: true))
        #expect(value(1) == 21)
        keys(.character("h"), .down(shift: false), .pageDown)
        #expect(value(1) == 9)
        keys(.end)
        #expect(value(1) == 100)
        keys(.home)
        #expect(value(1) == 0)
        keys(.character("7"))
        #expect(value(1) == 70)
    }

    @Test func tabMovesTheFocusInLayoutOrderAndAround() {
        #expect(controller.focus == 0)
        keys(.tab, .tab, .tab)
        #expect(controller.focus == 3)
        keys(.tab)
        #expect(controller.focus == 0)
        keys(.backTab)
        #expect(controller.focus == 3)
    }

    @Test func dResetsAndSpaceOrEnterFlipsAToggle() {
        tree.parameter(withAddress: 2)!.setValue(3)
        keys(.tab, .character("d"))
        #expect(value(2) == -6)
        keys(.tab, .tab, .character(" "))
        #expect(value(4) == 1)
        keys(.enter)
        #expect(value(4) == 0)
    }

    @Test func theEditorTakesTypedTextAndAppliesItOnEnter() {
        keys(.enter)
        #expect(controller.store.state.editor?.value == "0")
        keys(.backspace, .character("4"), .character("2"), .character("x"))
        #expect(controller.store.state.editor?.value == "42")
        keys(.enter)
        #expect(controller.store.state.editor == nil)
        #expect(value(1) == 42)
        keys(.enter, .character("9"), .escape)
        #expect(controller.store.state.editor == nil)
        #expect(value(1) == 42)
    }

    @Test func aDragUpRaisesTheKnobBy16PointsARow() {
        // Volume's tile is columns 1…12, rows 0…4; its centre column is 7.
        controller.handle(.mouse(MouseEvent(kind: .press, x: 7, y: 4)))
        controller.handle(.mouse(MouseEvent(kind: .drag, x: 7, y: 0)))
        // 4 rows = 64 points; a 100-point knob sweeps its range in 200 points.
        #expect(value(1) == 32)
        controller.handle(.mouse(MouseEvent(kind: .drag, x: 13, y: 1)))
        // Back down one row, 6 columns (48 points) sideways: 16 × 0.005 × 0.12 of the range.
        #expect(abs(value(1) - (32 - 0.96)) < 1e-4)
        controller.handle(.mouse(MouseEvent(kind: .release, x: 13, y: 1)))
        #expect(controller.store.state.knobs[id: 1]?.gesture == nil)
    }

    @Test func aGestureTouchesAndReleasesTheParameter() {
        let events = LockedEvents()
        let token = tree.token { change in events.append(change.eventType) }
        defer { tree.removeParameterObserver(token) }
        controller.handle(.mouse(MouseEvent(kind: .wheelUp, x: 5, y: 2)))
        controller.handle(.mouse(MouseEvent(kind: .wheelUp, x: 5, y: 2)))
        #expect(value(1) == 2)
        #expect(events.all == [.touch, .value, .value])
        clock.advance(by: .milliseconds(300))
        #expect(events.all == [.touch, .value, .value, .release])
    }

    @Test func clickingAToggleFlipsItAndFocusesIt() {
        controller.handle(.mouse(MouseEvent(kind: .press, x: 30, y: 8)))
        controller.handle(.mouse(MouseEvent(kind: .release, x: 30, y: 8)))
        #expect(value(4) == 1)
        #expect(controller.focus == 3)
    }

    @Test func qQuitsAndQuestionMarkShowsTheKeys() {
        keys(.character("?"))
        #expect(controller.showsHelp)
        keys(.character("?"))
        #expect(!controller.showsHelp)
        keys(.character("q"))
        #expect(controller.quitRequested)
    }
}

/// Automation event types seen by an observer, from any thread.
final class LockedEvents: Sendable {
    private let events = Locked<[AutomationEventType]>([])

    func append(_ event: AutomationEventType) {
        events.withLock { $0.append(event) }
    }

    var all: [AutomationEventType] { events.withLock { $0 } }
}
