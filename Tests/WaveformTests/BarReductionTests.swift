import Testing
import Waveform

@Suite struct BarReductionTests {
    @Test(arguments: [
        (Float(0), Float(0)), (1, 1), (2, 1), (0.1, 0.6), (0.01, 0.2), (0.00316228, 0), (0.001, 0),
    ])
    func decibelHeightMapsFiftyDecibelsOntoTheBar(linear: Float, expected: Float) {
        #expect(abs(BarReduction.decibelHeight(linear: linear) - expected) < 1e-4)
    }

    @Test func namesAreTheCommandLineSpellings() {
        #expect(BarReduction.allCases.map(\.rawValue) == ["peak", "rms", "db"])
    }
}
