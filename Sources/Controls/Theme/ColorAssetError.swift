/// Why a colour asset catalogue could not be read.
public enum ColorAssetError: Error, Sendable, Hashable {
    /// The catalogue directory could not be listed.
    case unreadableDirectory(path: String)
    /// A `Contents.json` could not be read.
    case unreadableFile(path: String)
    /// A `Contents.json` is not a colour set.
    case malformedContents(path: String, reason: String)
    /// A colour component is neither a fraction ("0.5"), a byte ("128") nor a hex byte ("0x80").
    case badComponent(path: String, value: String)
}
