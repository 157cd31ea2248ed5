extension ParameterTree {
    /// The embedded default tree: the AUv3Controls demo synth (CONTROLS.md §4) in groups, so
    /// that `/knob/gain` exists out of the box. `Examples/trees/default.json` holds the same tree.
    ///
    /// | group | parameters (address) |
    /// |---|---|
    /// | `knob` | `gain` (5) dB −60…12, `frequency` (3) Hz 10…20000 log, `pan` (4) −50…50 |
    /// | `toggle` | `retrigger` (1), `monophonic` (2), boolean |
    /// | `amp`, `mod` | `delay`, `attack`, `hold`, `decay`, `sustain`, `release` (100…105, 200…205) |
    public static let defaultSpecs: [ParameterNodeSpec] = [
        .group(
            "knob", "Knob",
            [
                .parameter(
                    ParameterSpec(
                        identifier: "gain", displayName: "Gain", address: 5, minValue: -60, maxValue: 12,
                        defaultValue: 0, unit: .decibels, flags: [.readable, .writable, .canRamp])),
                .parameter(
                    ParameterSpec(
                        identifier: "frequency", displayName: "Frequency", address: 3, minValue: 10, maxValue: 20000,
                        defaultValue: 440, unit: .hertz,
                        flags: [.readable, .writable, .canRamp, .displayLogarithmic], shortNames: ["Freq"])),
                .parameter(
                    ParameterSpec(
                        identifier: "pan", displayName: "Pan", address: 4, minValue: -50, maxValue: 50,
                        defaultValue: 0, unit: .generic, flags: [.readable, .writable, .canRamp])),
            ]),
        .group(
            "toggle", "Toggle",
            [
                .parameter(
                    ParameterSpec(
                        identifier: "retrigger", displayName: "Retrigger", address: 1, minValue: 0, maxValue: 1,
                        defaultValue: 0, unit: .boolean)),
                .parameter(
                    ParameterSpec(
                        identifier: "monophonic", displayName: "Monophonic", address: 2, minValue: 0, maxValue: 1,
                        defaultValue: 0, unit: .boolean, shortNames: ["Mono"])),
            ]),
        envelope("amp", "Amp", base: 100),
        envelope("mod", "Mod", base: 200),
    ]

    private static func envelope(_ identifier: String, _ displayName: String, base: ParameterAddress)
        -> ParameterNodeSpec
    {
        func time(_ identifier: String, _ name: String, _ offset: ParameterAddress, _ max: Float, _ value: Float)
            -> ParameterNodeSpec
        {
            .parameter(
                ParameterSpec(
                    identifier: identifier, displayName: name, address: base + offset, minValue: 0, maxValue: max,
                    defaultValue: value, unit: .seconds, flags: [.readable, .writable, .canRamp, .displayLogarithmic]))
        }
        return .group(
            identifier, displayName,
            [
                time("delay", "Delay", 0, 2, 0),
                time("attack", "Attack", 1, 5, 0.01),
                time("hold", "Hold", 2, 5, 0),
                time("decay", "Decay", 3, 5, 0.5),
                .parameter(
                    ParameterSpec(
                        identifier: "sustain", displayName: "Sustain", address: base + 4, minValue: 0, maxValue: 100,
                        defaultValue: 80, unit: .percent, flags: [.readable, .writable, .canRamp])),
                time("release", "Release", 5, 10, 0.5),
            ])
    }

    /// Builds a fresh copy of the embedded default tree (each call has its own values and observers).
    public static func makeDefault() -> ParameterTree {
        do {
            return try ParameterTree(children: defaultSpecs)
        } catch {
            // The specs are constants checked by the tests; failing here is a programming error.
            fatalError("the embedded default tree is invalid: \(error)")
        }
    }
}
