import Controls
import Foundation
import Parameters
import Testing

/// Compares renderings with the files in `Fixtures/` and `Docs/images/`.
///
/// Run with `KNOBLINK_REGENERATE_SVG=1` to rewrite the files after a deliberate change, then
/// look at them before committing.
@Suite struct SVGRendererTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let docsImages = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Docs/images")
    static let regenerate = ProcessInfo.processInfo.environment["KNOBLINK_REGENERATE_SVG"] == "1"

    private func check(
        _ svg: String, _ name: String, docs: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
    )
        throws
    {
        var directories = [Self.fixtures]
        if docs {
            directories.append(Self.docsImages)
        }
        for directory in directories {
            let url = directory.appendingPathComponent(name)
            if Self.regenerate {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try Data(svg.utf8).write(to: url)
                continue
            }
            let stored = try String(contentsOf: url, encoding: .utf8)
            #expect(
                stored == svg, "\(url.path) differs; rerun with KNOBLINK_REGENERATE_SVG=1",
                sourceLocation: sourceLocation)
        }
    }

    private static func knob(norm: Double, name: String = "Release", value: String? = nil) -> KnobFeature.State {
        var state = KnobFeature.State(value: 0, displayName: name, minimumValue: 0, maximumValue: 100, id: 1)
        state.track.norm = norm
        state.title.formattedValue = value
        return state
    }

    private let dark = SVGRenderer(theme: Theme(colorScheme: .dark), background: .black)

    @Test(arguments: [(0.0, "knob-minimum.svg"), (0.5, "knob-middle.svg"), (1.0, "knob-maximum.svg")])
    func knobIndicatorPositions(norm: Double, name: String) throws {
        try check(dark.render(knob: Self.knob(norm: norm)), name, docs: name == "knob-middle.svg")
    }

    @Test func knobWithValueWidthFour() throws {
        var theme = Theme(colorScheme: .dark)
        theme.controlValueStrokeStyle = StrokeStyle(lineWidth: 4)
        let renderer = SVGRenderer(theme: theme, background: .black)
        try check(renderer.render(knob: Self.knob(norm: 0.36, value: "36")), "knob-value-width-4.svg")
    }

    @Test func knobWithCustomAnglesInLightTheme() throws {
        var theme = Theme()
        theme.controlIndicatorStartAngle = .degrees(90)
        theme.controlIndicatorEndAngle = .degrees(270)
        try check(
            SVGRenderer(theme: theme, background: .white).render(knob: Self.knob(norm: 0.75)), "knob-custom-angles.svg",
            docs: true)
    }

    @Test func toggles() throws {
        try check(dark.render(toggle: ToggleFeature.State(isOn: true, displayName: "Retrigger")), "toggle-on.svg")
        try check(dark.render(toggle: ToggleFeature.State(isOn: false, displayName: "Monophonic")), "toggle-off.svg")
    }

    @Test func dualityGroup() throws {
        let tree = try ParameterTree(children: [
            .parameter(
                ParameterSpec(
                    identifier: "Frequency", displayName: "Frequency", address: 3, minValue: 10, maxValue: 20000,
                    defaultValue: 440, unit: .hertz, flags: [.displayLogarithmic, .canRamp])),
            .parameter(
                ParameterSpec(
                    identifier: "Pan", displayName: "Pan", address: 4, minValue: -50, maxValue: 50, defaultValue: 0,
                    flags: [.canRamp])),
            .parameter(
                ParameterSpec(
                    identifier: "Retrigger", displayName: "Retrigger", address: 1, minValue: 0, maxValue: 1,
                    defaultValue: 1, unit: .boolean)),
            .parameter(
                ParameterSpec(
                    identifier: "Monophonic", displayName: "Monophonic", address: 2, minValue: 0, maxValue: 1,
                    unit: .boolean)),
        ])
        var frequency = KnobFeature.State(parameter: tree.parameter(withAddress: 3)!)
        frequency.title.formattedValue = frequency.formatter.forDisplay(frequency.value)
        let controls: [ControlItem] = [
            .knob(frequency), .knob(KnobFeature.State(parameter: tree.parameter(withAddress: 4)!)),
            .toggle(ToggleFeature.State(parameter: tree.parameter(withAddress: 1)!)),
            .toggle(ToggleFeature.State(parameter: tree.parameter(withAddress: 2)!)),
        ]
        try check(dark.render(group: "Duality", controls: controls), "group-duality-dark.svg", docs: true)
        try check(
            SVGRenderer(theme: Theme(), background: .white).render(group: "Duality", controls: controls),
            "group-duality-light.svg", docs: true)
    }

    @Test func renderingIsDeterministicAndEscapesText() {
        let knob = Self.knob(norm: 0.25, name: "A<B & \"C\"")
        let first = dark.render(knob: knob)
        #expect(first == dark.render(knob: knob))
        #expect(first.contains("A&lt;B &amp; &quot;C&quot;"))
        #expect(first.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"112\""))
    }

    @Test func partsFollowTheTheme() {
        let svg = SVGRenderer(theme: Theme()).render(knob: Self.knob(norm: 0.5))
        #expect(svg.contains("stroke=\"#C7C7C9\""))
        #expect(svg.contains("stroke=\"#FF9500\""))
        #expect(svg.contains("fill=\"#D97F00\">Release</text>"))
        #expect(!svg.contains("<rect"))
        #expect(!SVGRenderer(theme: Theme()).render(knob: Self.knob(norm: 0)).contains("A 45 45 0 0 1"))
    }
}
