import Foundation
import OSCCore
import Testing

@testable import KnobLink

/// What the wave tests share: a small source whose bars and levels are known, a way to swap it
/// into a running server, subscribing, and reassembling overview frames.
enum WaveTesting {
    /// `count` bars rising from 0 in steps of 1/count; the level is 0.5 everywhere.
    static func rampSource(duration: Double = 2, name: String = "ramp") -> WaveSource {
        WaveSource(
            name: name, durationSeconds: duration, sampleRate: 1000, channels: 2,
            bars: { count, reduction, normalization in
                let scale: Float = (reduction == .rms ? 0.5 : 1) * (normalization == .fullScale ? 0.25 : 1)
                return (0..<count).map { Float($0) / Float(count) * scale }
            },
            peak: { _, _ in 0.5 })
    }

    /// Polls `condition` every 5 ms until it holds or `seconds` pass (generous: under
    /// ThreadSanitizer, with every wave suite at once, a server can take seconds to answer).
    static func eventually(within seconds: Double = 20, _ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition()
    }

    static func ramp(_ count: Int, scale: Float = 1) -> [Float] {
        (0..<count).map { Float($0) / Float(count) * scale }
    }

    /// Swaps `source` into the server, on its loop, as a completed `/wave/load` does.
    static func setSource(_ source: WaveSource, on fixture: ServerFixture) {
        let server = fixture.server
        server.onLoop { server.core.wave!.replaceSource(with: source) }
    }

    /// Subscribes `peer` for itself and waits for the whole state burst (it ends with the progress).
    static func subscribe(
        _ peer: TestPeer, bars: Int32 = 64, hz: Float = 30, flags: Int32 = 0
    ) async -> Bool {
        peer.clear()
        peer.send("/wave/sub", [.string(peer.url), .int32(bars), .float32(hz), .int32(flags)])
        return await peer.wait { $0.contains { $0.address == "/wave/progress" } }
    }

    /// Two peers of `fixture`, both subscribed with the defaults, with nothing received yet.
    static func twoVisualisers(on fixture: ServerFixture) async throws -> (TestPeer, TestPeer) {
        let first = try fixture.peer()
        let second = try fixture.peer()
        #expect(await subscribe(first))
        #expect(await subscribe(second))
        first.clear()
        second.clear()
        return (first, second)
    }

    /// The frames in `messages` by seq, each reassembled when all its bars arrived.
    static func overviews(_ messages: [OSCMessage]) -> [Int32: [Float]] {
        var parts: [Int32: (total: Int, values: [Int: Float])] = [:]
        for message in messages where message.address.hasPrefix("/wave/bars") {
            guard case .int32(let seq) = message.arguments[0], case .int32(let offset) = message.arguments[1],
                case .int32(let total) = message.arguments[2]
            else { continue }
            var values = parts[seq]?.values ?? [:]
            for (index, value) in barValues(message).enumerated() { values[Int(offset) + index] = value }
            parts[seq] = (Int(total), values)
        }
        var frames: [Int32: [Float]] = [:]
        for (seq, part) in parts where part.values.count == part.total {
            frames[seq] = (0..<part.total).map { part.values[$0]! }
        }
        return frames
    }

    /// The heights in one `/wave/bars` (big-endian float32 blob) or `/wave/bars/f` message.
    static func barValues(_ message: OSCMessage) -> [Float] {
        if case .blob(let bytes) = message.arguments.last, message.address == "/wave/bars" {
            return stride(from: 0, to: bytes.count, by: 4).map { index in
                Float(
                    bitPattern: UInt32(bytes[index]) << 24 | UInt32(bytes[index + 1]) << 16
                        | UInt32(bytes[index + 2]) << 8 | UInt32(bytes[index + 3]))
            }
        }
        return message.arguments.dropFirst(3).compactMap {
            if case .float32(let value) = $0 { return value }
            return nil
        }
    }

    /// Writes a 16-bit PCM WAV of `seconds` of a 440 Hz sine at `sampleRate`.
    static func writeWAV(to path: String, seconds: Double = 0.5, sampleRate: Int = 8000, channels: Int = 1) throws {
        let frames = Int(seconds * Double(sampleRate))
        var data: [UInt8] = []
        func le32(_ value: Int) { withUnsafeBytes(of: UInt32(value).littleEndian) { data.append(contentsOf: $0) } }
        func le16(_ value: Int) { withUnsafeBytes(of: UInt16(value).littleEndian) { data.append(contentsOf: $0) } }
        let dataBytes = frames * channels * 2
        data.append(contentsOf: Array("RIFF".utf8))
        le32(36 + dataBytes)
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        le32(16)
        le16(1)
        le16(channels)
        le32(sampleRate)
        le32(sampleRate * channels * 2)
        le16(channels * 2)
        le16(16)
        data.append(contentsOf: Array("data".utf8))
        le32(dataBytes)
        for frame in 0..<frames {
            let value = Int16(16_000 * sin(2 * Double.pi * 440 * Double(frame) / Double(sampleRate)))
            for _ in 0..<channels { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        }
        try Data(data).write(to: URL(fileURLWithPath: path))
    }
}

extension OSCMessage {
    /// The last argument's text (`/sys/error`'s reason), or `""`.
    var lastString: String {
        guard case .string(let value) = arguments.last else { return "" }
        return value
    }

    var int: Int32? {
        guard case .int32(let value) = arguments.first else { return nil }
        return value
    }
}
