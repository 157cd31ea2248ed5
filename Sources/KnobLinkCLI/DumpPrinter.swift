import Dispatch
import OSCCore
import OSCTransport

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// Turns each received packet into `oscdump` lines on standard output, and each malformed one
/// into an error line on standard error.
///
/// Every packet's text is written with one `write` as soon as it arrives, so a script reading
/// a pipe sees each line at once (what `oscdump -L` is for).
struct DumpPrinter: Sendable {
    /// Add the raw bytes of each packet after its lines.
    var showsHex: Bool
    /// Write each message's bytes instead of its line, as `oscdump -r` does.
    var writesRaw: Bool
    /// Print the messages of a bundle timed in the future when it is due, as liblo does.
    var delaysFutureBundles: Bool
    /// The loop that runs the delayed prints.
    var loop: OSCEventLoop
    /// The bound on messages waiting for their time.
    var pending = PendingMessages()

    /// Prints one packet (a datagram or a stream frame).
    /// - Parameters:
    ///   - bytes: the packet.
    ///   - sender: the peer, for the error line.
    func receive(_ bytes: UnsafeRawBufferPointer, from sender: String) {
        let now = TimeTagText.now()
        var output: [UInt8] = []
        // Messages due later, grouped by time tag in the order of the packet: one timer per
        // group keeps them in order, which timers with equal deadlines would not. Their text is
        // made now, from the packet's bytes, and printed when they are due.
        var later: [(timeTag: OSCTimeTag, count: Int, text: [UInt8])] = []
        do {
            // Read in place rather than decoded into owned messages, so that strings keep the
            // bytes received (see DumpFormat.appendLine(of:timeTag:now:to:)).
            try OSCPacket.visitMessages(in: bytes) { message, timeTag in
                if delaysFutureBundles && !timeTag.isImmediately && timeTag > now && pending.reserve() {
                    if later.last?.timeTag != timeTag { later.append((timeTag, 0, [])) }
                    later[later.count - 1].count += 1
                    append(message, timeTag: timeTag, now: timeTag, to: &later[later.count - 1].text)
                } else {
                    append(message, timeTag: timeTag, now: now, to: &output)
                }
            }
        } catch {
            var text = "Error: malformed packet from \(sender) (\(bytes.count) bytes): \(error.reason)\n"
            if showsHex { text += DumpFormat.hexDump(bytes) }
            Self.write(Array(text.utf8), to: .standardError)
            return
        }
        if showsHex { output += Array(DumpFormat.hexDump(bytes).utf8) }
        Self.write(output, to: .standardOutput)
        for group in later { schedule(group.text, count: group.count, at: group.timeTag) }
    }

    /// Prints a problem that is not about one packet, such as a connection closed for a bad frame.
    func report(_ problem: String) {
        Self.write(Array("Error: \(problem)\n".utf8), to: .standardError)
    }

    private func append(_ message: OSCMessageView, timeTag: OSCTimeTag, now: OSCTimeTag, to output: inout [UInt8]) {
        if writesRaw {
            DumpFormat.appendEncoding(of: message, to: &output)
        } else {
            DumpFormat.appendLine(of: message, timeTag: timeTag, now: now, to: &output)
        }
    }

    /// Prints the text of `count` messages due at `timeTag` when it comes.
    private func schedule(_ text: [UInt8], count: Int, at timeTag: OSCTimeTag) {
        let delay = timeTag.secondsSince1970 - Date().timeIntervalSince1970
        let deadline = DispatchTime.now() + .nanoseconds(Int(min(delay, 1e9) * 1e9))
        _ = loop.schedule(at: deadline) {
            Self.write(text, to: .standardOutput)
            pending.release(count)
        }
    }

    static func write(_ bytes: [UInt8], to handle: OutputFile) {
        guard !bytes.isEmpty else { return }
        try? handle.write(contentsOf: bytes)
    }
}
