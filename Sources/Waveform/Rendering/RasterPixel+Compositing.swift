import Controls

extension RasterPixel {
    /// `color` covering `coverage` (0…1) of the pixel, over `background` (or over nothing).
    ///
    /// Source-over in straight alpha, computed in `Double` and rounded once; a pixel whose
    /// alpha rounds to 0 is ``clear``, so that equal pictures have equal bytes.
    static func shaded(_ color: RGBAColor, coverage: Double, over background: RGBAColor?) -> RasterPixel {
        let source = color.alpha * coverage
        let backdrop = background?.alpha ?? 0
        let alpha = source + backdrop * (1 - source)
        guard alpha > 0 else { return .clear }
        func channel(_ top: Double, _ bottom: Double) -> UInt8 {
            UInt8((((top * source + bottom * backdrop * (1 - source)) / alpha) * 255).rounded().clamped(to: 0...255))
        }
        let alpha8 = UInt8((alpha * 255).rounded().clamped(to: 0...255))
        guard alpha8 > 0 else { return .clear }
        let under = background ?? .black
        return RasterPixel(
            red: channel(color.red, under.red), green: channel(color.green, under.green),
            blue: channel(color.blue, under.blue), alpha: alpha8)
    }

    /// The pixel that the progress point crosses: `played` for the `fraction` (0…1) of the pixel
    /// left of the point, `unplayed` for the rest.
    ///
    /// The two are mixed with premultiplied weights in integers (the fraction rounded to 255ths),
    /// so that the full renderer and the frame composer, which both call this, agree to the bit.
    static func split(played: RasterPixel, unplayed: RasterPixel, fraction: Double) -> RasterPixel {
        if fraction >= 1 { return played }
        if fraction <= 0 || fraction.isNaN { return unplayed }
        let weight = Int((fraction * 255).rounded())
        let rest = 255 - weight
        let playedAlpha = Int(played.alpha) * weight
        let unplayedAlpha = Int(unplayed.alpha) * rest
        let total = playedAlpha + unplayedAlpha
        guard total > 0 else { return .clear }
        func channel(_ top: UInt8, _ bottom: UInt8) -> UInt8 {
            UInt8((Int(top) * playedAlpha + Int(bottom) * unplayedAlpha + total / 2) / total)
        }
        return RasterPixel(
            red: channel(played.red, unplayed.red), green: channel(played.green, unplayed.green),
            blue: channel(played.blue, unplayed.blue), alpha: UInt8((total + 127) / 255))
    }

    /// Writes the pixel's four bytes at `address`, for loops over whole canvases.
    @inline(__always)
    func store(at address: UnsafeMutablePointer<UInt8>) {
        address[0] = red
        address[1] = green
        address[2] = blue
        address[3] = alpha
    }
}
