import OSCTransport

/// What the core knows of the packet it is handling: who sent it, on what, when it arrived and
/// how big it was. One value, made when the packet arrives and gone when it has been handled,
/// instead of five properties of the core that each had to be set and cleared in step.
///
/// Everything in a packet happens at its arrival time (``nanoseconds``): the rate limit, the
/// guard window, the wave stream's state bursts and the credit of unheard destinations all read
/// the one clock value, however long the packet takes to handle.
struct PacketContext {
    /// The peer that sent the packet.
    let peer: ServerPeer
    /// Its transport identity, as the receivers hand it back with each message.
    let source: OSCPeer
    /// When the packet arrived, on ``ServerClock``.
    let nanoseconds: UInt64
    /// A number per packet, so that a destination it names is credited once (ServerCore+Amplification.swift).
    let serial: UInt64
    /// The packet's size in bytes.
    let bytes: Int

    var seconds: Double { Double(nanoseconds) / 1e9 }
}
