import Testing

@testable import Parameters

@Suite struct NormValueTransformTests {
    private let linear = NormValueTransform(minimumValue: 0, maximumValue: 4, logScale: false)
    private let logarithmic = NormValueTransform(minimumValue: 0, maximumValue: 4, logScale: true)

    @Test func linearVectors() {
        #expect(abs(linear.valueToNorm(0.2) - 0.05) < 1e-4)
        #expect(abs(linear.valueToNorm(2) - 0.5) < 1e-4)
    }

    @Test func logarithmicVectors() {
        #expect(abs(logarithmic.valueToNorm(2) - 0.7403626894942439) < 1e-4)
        #expect(abs(logarithmic.normToValue(0.5) - 0.9610122934081686) < 1e-4)
    }

    @Test func valueToNormClamps() {
        #expect(linear.valueToNorm(-13) == 0)
        #expect(linear.valueToNorm(13) == 1)
        #expect(linear.valueToNorm(.infinity) == 1)
        #expect(linear.valueToNorm(-.infinity) == 0)
    }

    @Test func emptyRangeGivesZeroNotNaN() {
        let flat = NormValueTransform(minimumValue: 3, maximumValue: 3, logScale: true)
        #expect(flat.valueToNorm(3) == 0)
        #expect(flat.valueToNorm(10) == 0)
        #expect(flat.normToValue(0.7) == 3)
    }

    @Test(arguments: ParameterTaper.allCases)
    func taperRoundTrips(taper: ParameterTaper) {
        let transform = NormValueTransform(minimumValue: -60, maximumValue: 12, taper: taper)
        #expect(transform.valueToNorm(-60) == 0)
        #expect(abs(transform.valueToNorm(12) - 1) < 1e-12)
        for step in 0...100 {
            let value = -60 + 72 * Double(step) / 100
            let norm = transform.valueToNorm(value)
            #expect(norm >= 0 && norm <= 1 + 1e-12)
            #expect(abs(transform.normToValue(norm) - value) < 1e-9)
        }
    }

    @Test func taperFormulasAreTheDocumentedOnes() {
        let lin = 0.25
        #expect(ParameterTaper.linear.normalized(fromLinear: lin) == 0.25)
        #expect(abs(ParameterTaper.logarithmic.normalized(fromLinear: lin) - 0.5118833609788743) < 1e-12)
        #expect(ParameterTaper.squareRoot.normalized(fromLinear: lin) == 0.5)
        #expect(ParameterTaper.squared.normalized(fromLinear: lin) == 0.0625)
        #expect(ParameterTaper.cubed.normalized(fromLinear: lin) == 0.015625)
        #expect(abs(ParameterTaper.cubeRoot.normalized(fromLinear: 0.125) - 0.5) < 1e-12)
        #expect(abs(ParameterTaper.exponential.normalized(fromLinear: 0.5) - (10.0.squareRoot() - 1) / 9) < 1e-12)
    }
}
