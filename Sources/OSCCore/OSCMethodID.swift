/// The token that ``OSCDispatcher/register(_:typeSpec:handler:)`` returns, to unregister that
/// one handler later.
public struct OSCMethodID: Sendable, Hashable {
    /// A number unique within the dispatcher that issued it, in registration order.
    public let rawValue: UInt64

    init(rawValue: UInt64) {
        self.rawValue = rawValue
    }
}
