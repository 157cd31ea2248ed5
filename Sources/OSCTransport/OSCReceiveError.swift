import OSCCore

/// Why a received packet was not delivered.
public enum OSCReceiveError: Error, Sendable, Hashable {
    /// The packet is not valid OSC.
    case malformed(OSCDecodingError)
    /// The packet holds a bundle for later, but ``OSCReceiver/maximumScheduledPackets`` are
    /// already waiting, or ``OSCReceiver/maximumScheduledPacketsPerHost`` from its host, or its
    /// time is further away than ``OSCReceiver/maximumDelay``.
    case schedulingRefused(OSCTimeTag)
}
