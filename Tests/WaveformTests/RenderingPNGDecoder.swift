import CZlib

/// A PNG reader for the tests, independent of the encoder: it checks the signature, every
/// chunk's CRC, the header, inflates the data through zlib and undoes all five row filters.
struct RenderingPNGDecoder {
    struct Failure: Error, Equatable {
        var reason: String
    }

    var width = 0
    var height = 0
    var chunkTypes: [String] = []
    /// RGBA bytes, row by row.
    var pixels: [UInt8] = []

    init(_ file: [UInt8]) throws {
        guard file.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            throw Failure(reason: "signature")
        }
        var offset = 8
        var compressed: [UInt8] = []
        func word(_ at: Int) -> Int {
            file[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        while offset < file.count {
            guard offset + 12 <= file.count else { throw Failure(reason: "truncated chunk") }
            let length = word(offset)
            let typeAndData = Array(file[offset + 4..<offset + 8 + length])
            let type = String(decoding: typeAndData.prefix(4), as: UTF8.self)
            let stored = word(offset + 8 + length)
            let computed = typeAndData.withUnsafeBufferPointer { Int(crc32(0, $0.baseAddress, uInt($0.count))) }
            guard stored == computed else { throw Failure(reason: "CRC of \(type)") }
            chunkTypes.append(type)
            let data = typeAndData.dropFirst(4)
            switch type {
            case "IHDR":
                width = word(offset + 8)
                height = word(offset + 12)
                guard Array(data.suffix(5)) == [8, 6, 0, 0, 0] else { throw Failure(reason: "not 8-bit RGBA") }
            case "IDAT":
                compressed += data
            default:
                break
            }
            offset += 12 + length
        }
        let rowBytes = width * 4
        var raw = [UInt8](repeating: 0, count: height * (rowBytes + 1))
        var rawLength = uLongf(raw.count)
        let status = raw.withUnsafeMutableBufferPointer { output in
            compressed.withUnsafeBufferPointer {
                uncompress(output.baseAddress, &rawLength, $0.baseAddress, uLong($0.count))
            }
        }
        guard status == Z_OK, Int(rawLength) == raw.count else { throw Failure(reason: "inflate \(status)") }
        pixels = [UInt8](repeating: 0, count: height * rowBytes)
        for row in 0..<height {
            let filter = raw[row * (rowBytes + 1)]
            for index in 0..<rowBytes {
                let value = raw[row * (rowBytes + 1) + 1 + index]
                let left = index >= 4 ? Int(pixels[row * rowBytes + index - 4]) : 0
                let up = row > 0 ? Int(pixels[(row - 1) * rowBytes + index]) : 0
                let upLeft = row > 0 && index >= 4 ? Int(pixels[(row - 1) * rowBytes + index - 4]) : 0
                let predictor: Int
                switch filter {
                case 0: predictor = 0
                case 1: predictor = left
                case 2: predictor = up
                case 3: predictor = (left + up) / 2
                case 4:
                    let estimate = left + up - upLeft
                    let (a, b, c) = (abs(estimate - left), abs(estimate - up), abs(estimate - upLeft))
                    predictor = a <= b && a <= c ? left : b <= c ? up : upLeft
                default: throw Failure(reason: "filter \(filter)")
                }
                pixels[row * rowBytes + index] = value &+ UInt8(predictor & 0xFF)
            }
        }
    }

    func pixel(_ x: Int, _ y: Int) -> [UInt8] {
        Array(pixels[(y * width + x) * 4..<(y * width + x) * 4 + 4])
    }
}
