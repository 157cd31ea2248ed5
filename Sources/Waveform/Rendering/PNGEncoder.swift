import CZlib

/// Encodes a ``RasterCanvas`` as a PNG file: 8-bit RGBA (colour type 6), not interlaced,
/// compressed with zlib.
///
/// The file holds the signature, an `IHDR`, one `IDAT` and an `IEND` chunk, each with its
/// CRC-32. Every row is filtered with PNG's "Up" filter (the difference from the row above),
/// which turns the identical rows of a bar's straight middle into zeros that deflate well.
public enum PNGEncoder {
    /// The PNG bytes of `canvas`.
    ///
    /// - Parameters:
    ///   - canvas: the picture.
    ///   - compressionLevel: zlib's level, 0 (store) to 9 (smallest); 6 by default.
    /// - Returns: the complete file.
    /// - Throws: ``PNGEncodingError/emptyPicture(width:height:)`` for a canvas without pixels,
    ///   ``PNGEncodingError/zlibFailed(status:)`` if zlib fails (out of memory).
    /// - Complexity: O(width × height).
    public static func encode(_ canvas: RasterCanvas, compressionLevel: Int = 6) throws(PNGEncodingError) -> [UInt8] {
        guard canvas.width > 0, canvas.height > 0 else {
            throw .emptyPicture(width: canvas.width, height: canvas.height)
        }
        let rowBytes = canvas.width * 4
        var filtered = [UInt8](repeating: 0, count: canvas.height * (rowBytes + 1))
        canvas.bytes.withUnsafeBufferPointer { pixels in
            filtered.withUnsafeMutableBufferPointer { output in
                for row in 0..<canvas.height {
                    let target = row * (rowBytes + 1)
                    let source = row * rowBytes
                    output[target] = 2
                    if row == 0 {
                        for index in 0..<rowBytes { output[target + 1 + index] = pixels[source + index] }
                    } else {
                        for index in 0..<rowBytes {
                            output[target + 1 + index] = pixels[source + index] &- pixels[source - rowBytes + index]
                        }
                    }
                }
            }
        }
        var compressed = [UInt8](repeating: 0, count: Int(compressBound(uLong(filtered.count))))
        var compressedLength = uLongf(compressed.count)
        let level = Int32(min(max(compressionLevel, 0), 9))
        let status = compressed.withUnsafeMutableBufferPointer { output in
            filtered.withUnsafeBufferPointer { input in
                compress2(output.baseAddress, &compressedLength, input.baseAddress, uLong(input.count), level)
            }
        }
        guard status == Z_OK else { throw .zlibFailed(status: Int(status)) }
        compressed.removeSubrange(Int(compressedLength)...)

        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        appendBigEndian(UInt32(canvas.width), to: &header)
        appendBigEndian(UInt32(canvas.height), to: &header)
        header += [8, 6, 0, 0, 0]
        appendChunk("IHDR", header, to: &file)
        appendChunk("IDAT", compressed, to: &file)
        appendChunk("IEND", [], to: &file)
        return file
    }

    private static func appendChunk(_ type: String, _ data: [UInt8], to file: inout [UInt8]) {
        appendBigEndian(UInt32(data.count), to: &file)
        let typeAndData = Array(type.utf8) + data
        file += typeAndData
        let crc = typeAndData.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
        appendBigEndian(UInt32(truncatingIfNeeded: crc), to: &file)
    }

    private static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
