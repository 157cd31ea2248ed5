import Controls
import Foundation
import Testing

@Suite struct AngleTests {
    @Test(arguments: [
        (365.0, 5.0 / 360), (-5.0, 355.0 / 360), (360.0, 0.0), (0.0, 0.0), (720.0, 0.0), (-360.0, 0.0), (90.0, 0.25),
    ])
    func normalization(degrees: Double, expected: Double) {
        #expect(abs(Angle(degrees: degrees).normalized - expected) < 1e-12)
    }

    @Test func radians() {
        #expect(Angle(degrees: 180).radians == .pi)
        #expect(Angle(radians: .pi / 2).degrees == 90)
    }
}

@Suite struct ClampTests {
    @Test func clamp() {
        #expect((-13).clamped(to: 0...1) == 0)
        #expect(13.clamped(to: 0...1) == 1)
        #expect(0.5.clamped(to: 0...1) == 0.5)
    }

    @Test(arguments: [(-13.0, 0.0...1.0, 0.0), (13.0, 0.0...1.0, 1.0), (5.5, 4.0...7.0, 0.5), (3.0, 3.0...3.0, 0.0)])
    func normalizedInRange(value: Double, range: ClosedRange<Double>, expected: Double) {
        #expect(value.normalized(in: range) == expected)
    }
}

@Suite struct UUIDTests {
    @Test func foldsToSixtyFourBits() {
        let uuid = UUID(uuidString: "00000000-0000-0000-0000-00000000007B")!
        #expect(uuid.asUInt64 == 8_863_084_066_665_136_128)
        let mixed = UUID(uuidString: "01000000-0000-0000-0100-000000000000")!
        #expect(mixed.asUInt64 == 0)
    }
}
