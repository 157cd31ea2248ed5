/// The unit of a parameter's value, with the raw values of AudioUnitParameterUnit.
///
/// A raw value that KnobLink does not know is read as ``generic`` (see ``init(rawOrGeneric:)``).
public enum ParameterUnit: UInt32, Sendable, Hashable, CaseIterable {
    case generic = 0
    case indexed = 1
    case boolean = 2
    case percent = 3
    case seconds = 4
    case sampleFrames = 5
    case phase = 6
    case rate = 7
    case hertz = 8
    case cents = 9
    case relativeSemiTones = 10
    case midiNoteNumber = 11
    case midiController = 12
    case decibels = 13
    case linearGain = 14
    case degrees = 15
    case equalPowerCrossfade = 16
    case mixerFaderCurve1 = 17
    case pan = 18
    case meters = 19
    case absoluteCents = 20
    case octaves = 21
    case bpm = 22
    case beats = 23
    case milliseconds = 24
    case ratio = 25
    case customUnit = 26
    case midi2Controller = 27

    /// Creates a unit from an AudioUnitParameterUnit raw value, reading unknown values as generic.
    public init(rawOrGeneric rawValue: UInt32) {
        self = ParameterUnit(rawValue: rawValue) ?? .generic
    }

    /// The unit's name as written in tree files (`"decibels"`, `"hertz"`, `"bpm"`…).
    public var name: String {
        switch self {
        case .generic: "generic"
        case .indexed: "indexed"
        case .boolean: "boolean"
        case .percent: "percent"
        case .seconds: "seconds"
        case .sampleFrames: "sampleFrames"
        case .phase: "phase"
        case .rate: "rate"
        case .hertz: "hertz"
        case .cents: "cents"
        case .relativeSemiTones: "relativeSemiTones"
        case .midiNoteNumber: "midiNoteNumber"
        case .midiController: "midiController"
        case .decibels: "decibels"
        case .linearGain: "linearGain"
        case .degrees: "degrees"
        case .equalPowerCrossfade: "equalPowerCrossfade"
        case .mixerFaderCurve1: "mixerFaderCurve1"
        case .pan: "pan"
        case .meters: "meters"
        case .absoluteCents: "absoluteCents"
        case .octaves: "octaves"
        case .bpm: "bpm"
        case .beats: "beats"
        case .milliseconds: "milliseconds"
        case .ratio: "ratio"
        case .customUnit: "customUnit"
        case .midi2Controller: "midi2Controller"
        }
    }

    /// Finds a unit by its ``name`` (case-insensitive), or `nil`.
    public init?(name: String) {
        let lowered = name.lowercased()
        guard let unit = ParameterUnit.allCases.first(where: { $0.name.lowercased() == lowered }) else { return nil }
        self = unit
    }

    /// The short symbol shown to users and sent by `P/info` (PROTOCOL.md 9.4).
    ///
    /// `dB`, `Hz`, `s`, `ms`, `%`, `°`, `cents` and `BPM` for the units that have one, a few more
    /// that AudioUnit hosts show (`x` for rate, `st` for semitones, `beats`, `oct`), and `""` for
    /// the generic units. A custom unit's symbol is the parameter's `unitName`.
    public var symbol: String {
        switch self {
        case .decibels: "dB"
        case .hertz: "Hz"
        case .seconds: "s"
        case .milliseconds: "ms"
        case .percent: "%"
        case .phase, .degrees: "°"
        case .cents, .absoluteCents: "cents"
        case .bpm: "BPM"
        case .rate: "x"
        case .relativeSemiTones: "st"
        case .beats: "beats"
        case .octaves: "oct"
        case .sampleFrames: "samples"
        default: ""
        }
    }

    /// Whether values of this unit are whole steps (boolean and indexed), so that set values are quantised.
    public var isStepped: Bool {
        self == .boolean || self == .indexed
    }
}
