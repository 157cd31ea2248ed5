import Foundation
import OSCCore
import OSCTransport

/// Turns each received packet into `oscdump` lines on standard output, and each malformed one
/// into an error line on standard error.
///
/// Every packet's text is written with one `write` as soon as it arrives, so a script reading
/// a pipe sees each line at once (what `oscdump -L` is for).
struct DumpPrinter: Sendable {
    /// Add the raw bytes of each packet after its lines.
    var showsHex: Bool
    /// Print the messages of a bundle timed in the future when it is due, as liblo does.
    var delaysFutureBundles: Bool
    /// The loop that runs the delayed prints.
    var loop: OSCEventLoop

    /// Prints one packet (a datagram or a stream frame).
    /// - Parameters:
    ///   - bytes: the packet.
    ///   - sender: the peer, for the error line.
    func receive(_ bytes: UnsafeRawBufferPointer, from sender: String) {
        let packet: OSCPacket
        do {
            packet = try OSCPacket.decode(bytes)
        } catch {
            var text = "Error: malformed packet from \(sender) (\(bytes.count) bytes): \(error.reason)\n"
            if showsHex { text += DumpFormat.hexDump(bytes) }
            Self.write(Array(text.utf8), to: .standardError)
            return
        }
        let now = TimeTagText.now()
        var output: [UInt8] = []
        // Messages due later, grouped by time tag in the order of the packet: one timer per
        // group keeps them in order, which timers with equal deadlines would not.
        var later: [(timeTag: OSCTimeTag, messages: [OSCMessage])] = []
        walk(packet, timeTag: .immediately) { message, timeTag in
            if delaysFutureBundles && !timeTag.isImmediately && timeTag > now {
                if later.last?.timeTag == timeTag {
                    later[later.count - 1].messages.append(message)
                } else {
                    later.append((timeTag, [message]))
                }
            } else {
                DumpFormat.appendLine(of: message, timeTag: timeTag, now: now, to: &output)
            }
        }
        if showsHex { output += Array(DumpFormat.hexDump(bytes).utf8) }
        Self.write(output, to: .standardOutput)
        for group in later { schedule(group.messages, at: group.timeTag) }
    }

    /// Prints a problem that is not about one packet, such as a connection closed for a bad frame.
    func report(_ problem: String) {
        Self.write(Array("Error: \(problem)\n".utf8), to: .standardError)
    }

    /// Calls `body` for each message with the time tag of its innermost bundle, as liblo
    /// dispatches them.
    private func walk(_ packet: OSCPacket, timeTag: OSCTimeTag, _ body: (OSCMessage, OSCTimeTag) -> Void) {
        switch packet {
        case .message(let message):
            body(message, timeTag)
        case .bundle(let bundle):
            for element in bundle.elements { walk(element, timeTag: bundle.timeTag, body) }
        }
    }

    private func schedule(_ messages: [OSCMessage], at timeTag: OSCTimeTag) {
        let delay = timeTag.secondsSince1970 - Date().timeIntervalSince1970
        let deadline = DispatchTime.now() + .nanoseconds(Int(min(delay, 1e9) * 1e9))
        _ = loop.schedule(at: deadline) {
            var output: [UInt8] = []
            for message in messages { DumpFormat.appendLine(of: message, timeTag: timeTag, now: timeTag, to: &output) }
            Self.write(output, to: .standardOutput)
        }
    }

    static func write(_ bytes: [UInt8], to handle: FileHandle) {
        guard !bytes.isEmpty else { return }
        try? handle.write(contentsOf: Data(bytes))
    }
}
