import Parameters

extension ParameterUnit {
    /// The name of this unit in the OSCQuery proposal's list (its `units.md`, from Jamoma's
    /// dataspaces), or `nil` when the list has none that means the same.
    ///
    /// | unit | OSCQuery |
    /// |---|---|
    /// | `decibels` | `gain.db` |
    /// | `linearGain` | `gain.linear` |
    /// | `hertz` | `time.hz` |
    /// | `seconds` | `time.second` |
    /// | `milliseconds` | `time.ms` |
    /// | `sampleFrames` | `time.samples` |
    /// | `bpm` | `time.bpm` |
    /// | `absoluteCents` | `time.cents` |
    /// | `midiNoteNumber` | `time.midinote` |
    /// | `degrees`, `phase` | `angle.degree` |
    ///
    /// Relative cents and semitones, percent, rate, pan, octaves, beats, ratio and the generic,
    /// boolean, indexed, MIDI-controller and custom units have no counterpart: the list's
    /// `time.cents` is an absolute pitch, and it has no percentage or ratio.
    public var oscQueryUnit: String? {
        switch self {
        case .decibels: "gain.db"
        case .linearGain: "gain.linear"
        case .hertz: "time.hz"
        case .seconds: "time.second"
        case .milliseconds: "time.ms"
        case .sampleFrames: "time.samples"
        case .bpm: "time.bpm"
        case .absoluteCents: "time.cents"
        case .midiNoteNumber: "time.midinote"
        case .degrees, .phase: "angle.degree"
        default: nil
        }
    }
}
