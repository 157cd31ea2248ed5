import FuzzSupport
import Waveform

/// Reads the input as an audiowaveform `.dat` file. What is accepted must write back to the same
/// bytes (in the version it came in) and read back to the same data; what is refused must be
/// refused with an offset inside the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWaveformDat(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    let data: WaveformData
    do {
        data = try WaveformData(datBytes: bytes)
    } catch {
        switch error {
        case .unsupportedVersion(_, let offset), .unknownFlags(_, let offset), .invalidField(_, _, let offset),
            .dataSizeMismatch(_, _, let offset):
            fuzzCheck(offset >= 0 && offset <= count, "\(error) points outside \(count) bytes")
        default:
            break
        }
        return 0
    }
    let version = Int(bytes[0])
    let written = data.datBytes(version: version)
    fuzzCheck(written == bytes, "\(count) bytes accepted but written back as \(written.count) different bytes")
    fuzzCheck((try? WaveformData(datBytes: written)) == data, "the written bytes read back differently")
    fuzzCheck((try? WaveformData(jsonText: data.jsonText())) == data, "the data does not survive .json")
    return 0
}
