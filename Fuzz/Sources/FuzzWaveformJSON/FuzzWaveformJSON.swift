import FuzzSupport
import Waveform

/// Reads the input as an audiowaveform `.json` file. What is accepted must survive writing as
/// `.json` and as `.dat`; what is refused must be refused with an offset inside the text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWaveformJSON(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    let data: WaveformData
    do {
        data = try WaveformData(jsonText: text)
    } catch {
        switch error {
        case .syntax(_, let offset), .unexpectedField(_, let offset), .sampleOutOfRange(_, let offset),
            .unsupportedVersion(_, let offset), .invalidField(_, _, let offset):
            fuzzCheck(offset >= 0 && offset <= text.utf8.count, "\(error) points outside the text")
        default:
            break
        }
        return 0
    }
    let written = data.jsonText()
    fuzzCheck((try? WaveformData(jsonText: written)) == data, "the written text reads back differently")
    fuzzCheck((try? WaveformData(datBytes: data.datBytes())) == data, "the data does not survive .dat")
    return 0
}
