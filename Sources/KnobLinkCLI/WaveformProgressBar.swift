import Waveform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// The decoding progress bar of `knoblink waveform`, on stderr, drawn only when stderr is a
/// terminal so that logs and pipes get nothing.
///
/// One line rewritten in place with a carriage return: the file's name, a bar of 30 cells and
/// the percentage; the frame count instead when the length is unknown. It is redrawn only when
/// what it shows changes, and erased when decoding ends.
struct WaveformProgressBar {
    static let cells = 30

    let name: String
    let isEnabled: Bool
    private var shown = ""

    init(name: String, isEnabled: Bool = isatty(STDERR_FILENO) == 1) {
        self.name = name
        self.isEnabled = isEnabled
    }

    /// The line for `progress`, without the carriage return.
    static func line(name: String, progress: WaveformProgress) -> String {
        guard let fraction = progress.fraction else {
            return "Decoding \(name)  \(progress.frames) frames"
        }
        let clamped = min(max(fraction, 0), 1)
        let filled = Int((clamped * Double(cells)).rounded(.down))
        let percent = Int((clamped * 100).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: cells - filled)
        return "Decoding \(name)  [\(bar)] \(percent < 10 ? "  " : percent < 100 ? " " : "")\(percent)%"
    }

    mutating func update(_ progress: WaveformProgress) {
        guard isEnabled else { return }
        let line = Self.line(name: name, progress: progress)
        guard line != shown else { return }
        shown = line
        KnobLinkTool.write("\r" + line, to: .standardError)
    }

    /// Erases the line.
    mutating func finish() {
        guard isEnabled, !shown.isEmpty else { return }
        KnobLinkTool.write("\r" + String(repeating: " ", count: shown.count) + "\r", to: .standardError)
        shown = ""
    }
}
