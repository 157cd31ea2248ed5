import FuzzSupport
import Waveform

/// Decodes the input as an audio file through libsndfile (every format it reads: WAV, AIFF, CAF,
/// FLAC, Ogg Vorbis, Opus, MP3, …) with KnobLink's reader and analysis. Hostile files must end in
/// an ``AudioDecodingError``, never a crash; what decodes must give consistent data and bars.
///
/// libmpg123's notes on damaged frames are silenced (CQuietMPG123). The resident memory of a run
/// grows by about 5.6 KB for every input that libsndfile takes for Ogg Vorbis and then fails to
/// open: libsndfile 1.2.0 (Debian 12) returns from `ogg_vorbis_open` on a bad header without
/// `vorbis_info_clear`, leaking the codec setup `vorbis_info_init` allocated (heaptrack shows no
/// other leak under this target). 20,000 runs of one such input take the process from 45 to
/// 157 MB; long runs therefore end at `-rss_limit_mb` without a bug of KnobLink's.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAudioDecoder(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let options = WaveformOptions(zoom: 64)
    guard let analysis = try? AudioAnalysis(audioBytes: bytes, name: "input", options: options) else { return 0 }
    let frames = analysis.frameCount
    fuzzCheck(analysis.waveform.length == (frames + 63) / 64, "\(frames) frames gave \(analysis.waveform.length) pairs")
    fuzzCheck(analysis.summary.frameCount == frames, "the summary counts \(analysis.summary.frameCount) of \(frames)")
    for reduction in BarReduction.allCases {
        let bars = analysis.summary.bars(count: 16, reduction: reduction)
        fuzzCheck(bars.allSatisfy { $0 >= 0 && $0 <= 1 }, "\(reduction) bars outside 0…1: \(bars)")
    }
    return 0
}
