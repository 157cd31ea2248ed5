/// The message being handled, as its handlers see it: who sent it, and where errors about it go.
///
/// ``ServerCore/deliver(_:from:)`` makes one for each message and the dispatcher hands it to the
/// handlers (`OSCDispatcher.dispatch(_:context:)`), which pass it down to whatever answers the
/// message. No property of the core says "the peer being handled": a helper that needs the sender
/// takes the request as an argument, so it cannot read a peer left over from another message.
struct ServerRequest {
    /// The peer whose message this is: the packet's sender, or the sender of a scheduled bundle
    /// delivered later.
    let peer: ServerPeer
    /// Where `/sys/error` answers about this message go instead of ``peer``: the reply url of a
    /// request that carries one (`P/get s url`, `/sys/list s url`, …), where the requester listens.
    let errorDestination: PeerDestination?
}
