import Controls
import Parameters

@testable import TerminalUI

/// A tree like the default one: a loose knob, a group of knobs with a bipolar pan, and a toggle.
enum SurfaceFixtures {
    static func tree() throws -> ParameterTree {
        try ParameterTree(children: [
            .parameter(
                ParameterSpec(identifier: "volume", displayName: "Volume", address: 1, minValue: 0, maxValue: 100)),
            .group(
                ParameterGroupSpec(
                    identifier: "mix", displayName: "Mix",
                    children: [
                        .parameter(
                            ParameterSpec(
                                identifier: "gain", displayName: "Gain", address: 2, minValue: -60, maxValue: 12,
                                defaultValue: -6, unit: .decibels)),
                        .parameter(
                            ParameterSpec(
                                identifier: "pan", displayName: "Pan", address: 3, minValue: -50, maxValue: 50,
                                defaultValue: 0)),
                        .parameter(
                            ParameterSpec(
                                identifier: "mute", displayName: "Mute", address: 4, minValue: 0, maxValue: 1,
                                unit: .boolean)),
                    ])),
        ])
    }

    /// A controller on an 80 × 24 terminal over `tree`'s controls, on a test clock.
    static func controller(_ tree: ParameterTree, clock: TestClock, width: Int = 80, height: Int = 24)
        -> SurfaceController
    {
        let sections = SurfaceSection.sections(of: tree)
        let knobs = tree.allParameters.filter { $0.unit != .boolean }.map { KnobFeature.State(parameter: $0) }
        let toggles = tree.allParameters.filter { $0.unit == .boolean }.map { ToggleFeature.State(parameter: $0) }
        let store = Store(
            initialState: ControlSurfaceFeature.State(knobs: knobs, toggles: toggles),
            reducer: ControlSurfaceFeature(), clock: clock)
        return SurfaceController(
            store: store, sections: sections, theme: Theme(colorScheme: .dark), width: width, height: height)
    }
}
