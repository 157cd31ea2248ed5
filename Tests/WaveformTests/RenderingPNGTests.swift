import Controls
import Testing
import Waveform

@Suite struct RenderingPNGTests {
    @Test(arguments: [nil, RGBAColor.white])
    func decodesBackToTheSamePixels(background: RGBAColor?) throws {
        let canvas = RenderingRasterTests.render(RenderingRasterTests.style(.rounded, background: background))
        let decoded = try RenderingPNGDecoder(try PNGEncoder.encode(canvas))
        #expect(decoded.chunkTypes == ["IHDR", "IDAT", "IEND"])
        #expect(decoded.width == 95 && decoded.height == 40)
        #expect(decoded.pixels == canvas.bytes)
    }

    @Test func pixelsAtKnownPoints() throws {
        let canvas = RenderingRasterTests.render(RenderingRasterTests.style(.square))
        let decoded = try RenderingPNGDecoder(try PNGEncoder.encode(canvas, compressionLevel: 9))
        #expect(decoded.pixel(4, 20) == [255, 0, 0, 255], "played")
        #expect(decoded.pixel(60, 20) == [0, 0, 255, 255], "unplayed")
        #expect(decoded.pixel(9, 20) == [0, 0, 0, 0], "gap")
        #expect(decoded.pixel(8, 20) == [255, 0, 0, 128], "edge")
        #expect(decoded.pixel(42, 20) == [191, 0, 64, 255], "split")
    }

    @Test func aDamagedByteFailsItsChunksCRC() throws {
        var file = try PNGEncoder.encode(RenderingRasterTests.render(RenderingRasterTests.style(.square)))
        file[20] ^= 1
        #expect(throws: RenderingPNGDecoder.Failure(reason: "CRC of IHDR")) { try RenderingPNGDecoder(file) }
    }

    @Test func storedWithoutCompressionStillDecodes() throws {
        let canvas = RasterCanvas(width: 3, height: 2, filledWith: RasterPixel(red: 1, green: 2, blue: 3, alpha: 4))
        let file = try PNGEncoder.encode(canvas, compressionLevel: 0)
        #expect(try RenderingPNGDecoder(file).pixels == canvas.bytes)
        #expect(Array(file.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    @Test(arguments: [(0, 3), (3, 0), (0, 0)])
    func aPictureWithoutPixelsIsRefused(width: Int, height: Int) {
        #expect(throws: PNGEncodingError.emptyPicture(width: width, height: height)) {
            try PNGEncoder.encode(RasterCanvas(width: width, height: height))
        }
    }
}
