/// Why messages of a listing were refused (see ``RemoteListing``).
enum RemoteListingError: Error, Equatable, CustomStringConvertible {
    /// A message of the wrong shape, or an address that cannot be a key path.
    case malformed(String, String)
    /// More than the limits allow.
    case tooLarge(String)

    var description: String {
        switch self {
        case .malformed(let address, let reason): "\(address): \(reason)"
        case .tooLarge(let what): "too large: \(what)"
        }
    }
}
