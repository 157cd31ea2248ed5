/// One file of the web control surface, ready to be sent as an HTTP response body.
public struct WebSurfaceAsset: Sendable, Equatable {
    /// The value of the `Content-Type` header (`text/html; charset=utf-8`…).
    public let contentType: String
    /// The bytes of the file.
    public let body: [UInt8]

    /// Creates an asset.
    public init(contentType: String, body: [UInt8]) {
        self.contentType = contentType
        self.body = body
    }
}
