import Controls
import Parameters
import Testing

/// The original's transform vectors, as a knob's track sees them.
@Suite struct NormValueTransformTests {
    @Test func linear() {
        let state = KnobFeature.State(value: 0.2, displayName: "Linear", minimumValue: 0, maximumValue: 4, id: 1)
        #expect(abs(state.track.norm - 0.05) < 1e-4)
        #expect(abs(state.track.normValueTransform.valueToNorm(2) - 0.5) < 1e-4)
    }

    @Test func logarithmic() {
        let state = KnobFeature.State(
            value: 2, displayName: "Log", minimumValue: 0, maximumValue: 4, logarithmic: true, id: 1)
        #expect(abs(state.track.norm - 0.7403626894942439) < 1e-4)
        #expect(abs(state.track.normValueTransform.normToValue(0.5) - 0.9610122934081686) < 1e-4)
    }

    @Test func valuesAreClampedOnTheWayIn() {
        let state = KnobFeature.State(value: 9, displayName: "High", minimumValue: 0, maximumValue: 4, id: 1)
        #expect(state.track.norm == 1)
        #expect(state.value == 4)
    }
}

@Suite struct ParameterExtensionTests {
    @Test func rangeAndBoolValue() throws {
        let (_, release) = try ParameterFixtures.releaseTree()
        #expect(release.range == 0...100)
        #expect(!release.boolValue)
        release.setValue(0.5)
        #expect(release.boolValue)
        release.setValue(0.49)
        #expect(!release.boolValue)
    }
}
