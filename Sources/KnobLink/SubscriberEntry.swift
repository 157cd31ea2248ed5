import UncheckedState

/// A subscriber and its feedback state, held without reference counting for the fan-out loop.
///
/// A change visits every subscriber: with strong references, each visit retained and released
/// the peer and its state (four atomic operations per subscriber per set, the largest cost of a
/// set with 32 subscribers). `ServerCore.subscribers` holds the peers strongly and each peer
/// holds its state, so an entry is valid while it is in `ServerCore.subscriberEntries`, which
/// is rebuilt whenever `subscribers` changes.
struct SubscriberEntry {
    let peer: UncheckedReference<ServerPeer>
    let state: UncheckedReference<SubscriberState>
}
