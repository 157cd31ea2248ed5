import Parameters

extension ParameterUnit {
    /// The unit that `/sys/list` and `P/info` name with `text` (PROTOCOL.md rule 9.4): `boolean`
    /// and `indexed` for those kinds, else a short symbol (`dB`, `Hz`, `ms`…), `""` for generic.
    ///
    /// A symbol shared by two units (`°` for degrees and phase, `cents` for relative and absolute
    /// cents) reads as the more common one; the display is the same. Any other text is a custom
    /// unit whose name is the text.
    static func remote(_ text: String) -> (unit: ParameterUnit, name: String?) {
        switch text {
        case "boolean": (.boolean, nil)
        case "indexed": (.indexed, nil)
        case "": (.generic, nil)
        case "dB": (.decibels, nil)
        case "Hz": (.hertz, nil)
        case "s": (.seconds, nil)
        case "ms": (.milliseconds, nil)
        case "%": (.percent, nil)
        case "°": (.degrees, nil)
        case "cents": (.cents, nil)
        case "BPM": (.bpm, nil)
        case "x": (.rate, nil)
        case "st": (.relativeSemiTones, nil)
        case "beats": (.beats, nil)
        case "oct": (.octaves, nil)
        case "samples": (.sampleFrames, nil)
        default: (.customUnit, text)
        }
    }
}
