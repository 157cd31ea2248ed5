/// A picture in memory: rows of RGBA pixels, 8 bits per channel, straight alpha, top row first.
///
/// This is the layout a PNG of colour type 6 stores, so ``PNGEncoder`` reads the bytes as they are.
public struct RasterCanvas: Sendable, Equatable {
    /// The width in pixels.
    public let width: Int
    /// The height in pixels.
    public let height: Int
    /// `width × height × 4` bytes: red, green, blue, alpha for each pixel, row by row.
    public internal(set) var bytes: [UInt8]

    /// Creates a canvas filled with one pixel (transparent by default).
    public init(width: Int, height: Int, filledWith pixel: RasterPixel = .clear) {
        self.width = max(0, width)
        self.height = max(0, height)
        bytes = [UInt8](repeating: 0, count: self.width * self.height * 4)
        if pixel != .clear {
            bytes.withUnsafeMutableBufferPointer { bytes in
                guard let base = bytes.baseAddress else { return }
                for offset in stride(from: 0, to: bytes.count, by: 4) {
                    pixel.store(at: base + offset)
                }
            }
        }
    }

    /// The pixel at column `x` and row `y` (from the top left corner).
    public subscript(x: Int, y: Int) -> RasterPixel {
        get { self[y * width + x] }
        set { self[y * width + x] = newValue }
    }

    /// The pixel at `index` counted row by row.
    subscript(index: Int) -> RasterPixel {
        get {
            let offset = index * 4
            return RasterPixel(
                red: bytes[offset], green: bytes[offset + 1], blue: bytes[offset + 2], alpha: bytes[offset + 3])
        }
        set {
            let offset = index * 4
            bytes[offset] = newValue.red
            bytes[offset + 1] = newValue.green
            bytes[offset + 2] = newValue.blue
            bytes[offset + 3] = newValue.alpha
        }
    }
}
