import Locking
import Zeroconf

/// Keeps every line an advertiser logs, for any thread to add to and the test to read.
final class LogRecorder: Sendable {
    private let lines = Locked<[(level: ZeroconfLogLevel, message: String)]>([])

    /// The closure to hand to ``ZeroconfAdvertiser``.
    var log: @Sendable (ZeroconfLogLevel, String) -> Void {
        { [self] level, message in lines.withLock { $0.append((level, message)) } }
    }

    var messages: [String] { lines.withLock { $0.map(\.message) } }

    /// The lines that contain `text`.
    func messages(containing text: String) -> [String] { messages.filter { $0.contains(text) } }
}
