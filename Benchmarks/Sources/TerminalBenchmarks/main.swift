// The terminal surface's frames (issue 13): on a 200×60 terminal with 64 knobs and the waveform
// row, a knob dragged one step a frame while the playhead moves, painted and written the
// surface's way (only the cells that changed, `FrameRenderer.render`) against the naive way (every
// cell of the screen written again, `renderFull`). Both paint the same scene each frame; the
// figures are bytes written per frame and the time per frame (painting and encoding).
//
//   swift run -c release TerminalBenchmarks          (or: bash Scripts/bench.sh terminal)
import BenchHarness
import Controls
import Foundation
import Parameters
import TerminalUI
import Waveform

/// Four groups of 16 knobs: dB, Hz, % and plain numbers, as a plug-in's page might have.
func makeTree() -> ParameterTree {
    let kinds: [(String, ParameterUnit, Float, Float)] = [
        ("gain", .decibels, -60, 12), ("freq", .hertz, 20, 20_000), ("mix", .percent, 0, 100),
        ("amount", .generic, -1, 1),
    ]
    let groups: [ParameterNodeSpec] = kinds.enumerated().map { group, kind in
        ParameterTree.createGroup(
            withIdentifier: "g\(group)", name: "Group \(group + 1)",
            children: (0..<16).map { index in
                ParameterTree.createParameter(
                    withIdentifier: "\(kind.0)\(index)", name: "\(kind.0.capitalized) \(index + 1)",
                    address: ParameterAddress(group * 16 + index + 1), min: kind.2, max: kind.3, unit: kind.1,
                    flags: [.readable, .writable], defaultValue: kind.2)
            })
    }
    do {
        return try ParameterTree(children: groups)
    } catch {
        fatalError("benchmark tree refused: \(error)")
    }
}

/// A waveform's bars with some texture: a slow swell times a fast wobble.
func bars(_ count: Int) -> [Float] {
    (0..<count).map { index in
        let swell = 0.5 + 0.5 * Float(sin(Double(index) / Double(count) * 7))
        let wobble = 0.6 + 0.4 * Float(sin(Double(index) * 1.7))
        return swell * wobble
    }
}

/// One frame after another: the dragged knob moves a step (1 % of its sweep, back and forth) and
/// the playhead advances 1/1200 of the track (the 200-column row is crossed in 10 s at 120 frames a second).
final class Animation {
    let controller: SurfaceController
    let store: Store<ControlSurfaceFeature>
    let painter: SurfacePainter
    let knob: UInt64
    let range: (low: Double, high: Double)
    var frame = 0

    init(width: Int, height: Int) {
        let tree = makeTree()
        let (store, sections) = TerminalSurface.makeStore(tree: tree)
        let waveform = Store(
            initialState: ScrubberFeature.State(bars: bars(width - 2), progress: 0, width: Double(width - 2)),
            reducer: ScrubberFeature())
        let theme = Theme(colorScheme: .dark)
        controller = SurfaceController(
            store: store, sections: sections, waveform: waveform, theme: theme, width: width, height: height)
        self.store = store
        painter = SurfacePainter(theme: theme, colorMode: .trueColor)
        let dragged = tree.allParameters[5]
        knob = store.state.knobs[5].id
        range = (Double(dragged.minValue), Double(dragged.maxValue))
    }

    /// The next frame's grid.
    func next() -> CellGrid {
        frame += 1
        let step = Double(frame % 200)
        let norm = (step < 100 ? step : 200 - step) / 100
        // The value as the store gets it from the parameter: the arc, the title and the value text change.
        store.send(.knobs(.element(id: knob, action: .valueChanged(range.low + norm * (range.high - range.low)))))
        var scene = controller.scene(status: SurfaceStatus(name: "bench", peerCount: 3))
        scene.waveform?.progress = Double(frame % 1200) / 1200
        scene.waveform?.playbackProgress = Double(frame % 1200) / 1200
        return painter.paint(scene)
    }
}

let (width, height) = (200, 60)
let surface = Animation(width: width, height: height)
let naive = Animation(width: width, height: height)
var renderer = FrameRenderer(colorMode: .trueColor)
let fullRenderer = FrameRenderer(colorMode: .trueColor)
_ = renderer.render(surface.next())  // the first frame is a full one for both

// Bytes per frame over 1,200 frames (one pass of the playhead across the row).
var changedBytes = 0
var fullBytes = 0
var quietFrames = 0
for _ in 0..<1200 {
    let bytes = renderer.render(surface.next())?.count ?? 0
    if bytes == 0 { quietFrames += 1 }
    changedBytes += bytes
    fullBytes += fullRenderer.renderFull(naive.next()).count
}

let painting = Animation(width: width, height: height)
let contenders = [
    Contender.timing("changed cells") { blackHole(renderer.render(surface.next())) },
    Contender.timing("full redraw") { blackHole(fullRenderer.renderFull(naive.next())) },
    // What both pay: the store's action and painting the scene into a grid.
    Contender.timing("paint only") { blackHole(painting.next()) },
]
let samples = Rounds().samples(contenders)
let surfaceRate = Statistics.median(samples[0])
let naiveRate = Statistics.median(samples[1])

let report = Report(title: "Terminal surface frames, \(width)×\(height), 64 knobs and the waveform row")
report.add(
    "bytes per frame (1,200 frames)", knobLink: "\(changedBytes / 1200) B",
    peer: "full redraw \(fullBytes / 1200) B", ratio: Double(fullBytes) / Double(max(changedBytes, 1)), target: nil)
report.add(
    "frame: paint + encode", knobLink: Format.micros(UInt64(1e9 / surfaceRate)),
    peer: "full redraw \(Format.micros(UInt64(1e9 / naiveRate)))",
    ratio: Rounds.pairedRatio(samples[0], samples[1]), target: nil)
report.printMarkdown()
print("  of which the action and painting: \(Format.micros(UInt64(1e9 / Statistics.median(samples[2])))) a frame")
print("  frames with nothing to write: \(quietFrames) of 1,200")
