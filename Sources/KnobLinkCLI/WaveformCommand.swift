import Controls
import Waveform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// `knoblink waveform`: decodes an audio file and writes audiowaveform's min/max data, bars as
/// text, or a picture of the bars.
struct WaveformCommand: RunnableCommand {
    static let name = "waveform"

    static let spec = CommandSpec(
        name: name,
        abstract: "Write an audio file's waveform: data, text, pictures.",
        discussion: """
            The output type comes from the extension of --output (.json, .dat, .svg, .png,
            .txt) or from --format; without --output the result goes to standard output, as
            text unless --format says otherwise. .json and .dat are BBC audiowaveform's
            min/max data, byte for byte. .txt is one bar per line: its start in seconds and
            its height from 0 to 1, after '#' comment lines describing the file. Options
            have audiowaveform's names where they mean the same; -h is help here, so the
            height is --height only.

            Pictures have as many bars as --bar-width and --bar-gap fit in --width, unless
            --bars, --zoom or --pixels-per-second say otherwise; the bars fill the width.
            Colours are RRGGBB or RRGGBBAA in hexadecimal, as audiowaveform takes them.
            """,
        usage: ["[<options>] <file>"],
        arguments: [ArgumentSpec(name: "file", help: "The audio file (WAV, AIFF, CAF, FLAC, Ogg, Opus, MP3).")],
        options: [
            .option("output", short: "o", value: "file", help: "Where to write. (default: standard output)"),
            .option("format", value: "format", help: "json, dat, svg, png or txt. (default: from --output)"),
            .option("zoom", short: "z", value: "frames", help: "Frames per min/max pair, or per bar. (default: 256)"),
            .option("pixels-per-second", value: "count", help: "Pairs or bars per second of audio."),
            .option("bars", value: "count", help: "The number of bars (text and pictures), 1 to 65536."),
            .option("bits", short: "b", value: "bits", help: "8 or 16 bits of min/max data. (default: 16)"),
            .flag("split-channels", help: "Min/max data per channel instead of the channels mixed."),
            .option("reduction", value: "reduction", help: "How bars are made: peak, rms or db. (default: peak)"),
            .flag("no-normalize", help: "Keep bars at their level of full scale; the loudest is 1 otherwise."),
            .option("width", short: "w", value: "pixels", help: "The picture's width. (default: 800)"),
            .option("height", value: "pixels", help: "The picture's height. (default: 120)"),
            .option("bar-width", value: "pixels", help: "The bar width wished for. (default: 8)"),
            .option("bar-gap", value: "pixels", help: "The space between bars. (default: 2)"),
            .option("bar-style", value: "style", help: "rounded or square. (default: rounded)"),
            .option("progress", value: "fraction", help: "How much is played, 0 to 1. (default: 0)"),
            .option("theme", value: "theme", help: "Where colours come from: light or dark. (default: light)"),
            .option("played-color", value: "color", help: "The played bars' colour. (default: the theme's)"),
            .option("unplayed-color", value: "color", help: "The unplayed bars' colour. (default: the theme's)"),
            .option("waveform-color", value: "color", help: "The same as --unplayed-color (audiowaveform's name)."),
            .option("background-color", value: "color", help: "The colour behind the bars. (default: transparent)"),
        ]
    )

    /// The options that only data output (.json, .dat) takes.
    static let dataOptions: Set = ["bits", "split-channels"]
    /// The options that only bars (.txt and pictures) take.
    static let barOptions: Set = ["bars", "reduction", "no-normalize"]
    /// The options that only pictures take.
    static let pictureOptions: Set = [
        "width", "height", "bar-width", "bar-gap", "bar-style", "progress", "theme", "played-color", "unplayed-color",
        "waveform-color", "background-color",
    ]

    var input: String
    var output: String?
    var format: WaveformOutputFormat
    var resolution: WaveformResolution
    var options: WaveformOptions
    var reduction: BarReduction
    var normalization: BarNormalization
    var style: WaveformStyle
    var progress: Double

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        var positionals = PositionalReader(arguments.positionals)
        input = try positionals.next("<file>")
        try positionals.finish()
        let outputPath = arguments.value("output")
        output = outputPath == "-" ? nil : outputPath
        if let name = arguments.value("format") {
            format = try Self.choice(name, "--format <format>")
        } else if let output {
            guard let format = WaveformOutputFormat(path: output) else {
                throw .invalidValue(
                    output, for: "--output <file>",
                    reason: "the extension is not .json, .dat, .svg, .png or .txt; use --format")
            }
            self.format = format
        } else {
            format = .txt
        }
        try Self.checkApplicable(arguments, to: format)

        let given = ["zoom", "pixels-per-second", "bars"].filter { arguments.value($0) != nil }
        if given.count > 1 {
            throw .other("--\(given[0]) and --\(given[1]) cannot be used together")
        }
        let maximumZoom = Int(Int32.max)
        if let zoom = try Self.integer(arguments.value("zoom"), "--zoom <frames>", in: 1...maximumZoom) {
            resolution = .zoom(zoom)
        } else if let count = try Self.integer(
            arguments.value("pixels-per-second"), "--pixels-per-second <count>", in: 1...maximumZoom)
        {
            resolution = .pixelsPerSecond(count)
        } else if let count = try Self.integer(
            arguments.value("bars"), "--bars <count>", in: 1...AmplitudeSummary.maximumBarCount)
        {
            resolution = .bars(count)
        } else {
            resolution = .automatic
        }
        var bits = 16
        if let text = arguments.value("bits") {
            guard let value = Int(text), value == 8 || value == 16 else {
                throw .invalidValue(text, for: "--bits <bits>", reason: "expected 8 or 16")
            }
            bits = value
        }
        options = WaveformOptions(bits: bits, splitChannels: arguments.has("split-channels"))
        reduction = try Self.choice(arguments.value("reduction") ?? "peak", "--reduction <reduction>")
        normalization = arguments.has("no-normalize") ? .fullScale : .loudest

        let scheme: ColorScheme = try Self.choice(arguments.value("theme") ?? "light", "--theme <theme>")
        style = WaveformStyle(
            width: try Self.integer(arguments.value("width"), "--width <pixels>", in: 1...16_384) ?? 800,
            height: try Self.integer(arguments.value("height"), "--height <pixels>", in: 1...2048) ?? 120,
            theme: Theme(colorScheme: scheme),
            barWidth: try Self.length(arguments.value("bar-width"), "--bar-width <pixels>") ?? 8,
            barGap: try Self.length(arguments.value("bar-gap"), "--bar-gap <pixels>") ?? 2,
            barStyle: try Self.choice(arguments.value("bar-style") ?? "rounded", "--bar-style <style>"))
        if format.isPicture, case .bars(let count) = resolution, count > style.maximumBarCount {
            throw .invalidValue(
                String(count), for: "--bars <count>",
                reason: "at most \(style.maximumBarCount) bars fit in a picture \(style.width) pixels wide"
                    + " (one a pixel); use fewer --bars or a larger --width")
        }
        if let text = arguments.value("played-color") {
            style.playedColor = try Self.color(text, "--played-color <color>")
        }
        for name in ["waveform-color", "unplayed-color"] {
            if let text = arguments.value(name) {
                style.unplayedColor = try Self.color(text, "--\(name) <color>")
            }
        }
        if let text = arguments.value("background-color") {
            style.backgroundColor = try Self.color(text, "--background-color <color>")
        }
        if let text = arguments.value("progress") {
            guard let value = Double(text), (0...1).contains(value) else {
                throw .invalidValue(text, for: "--progress <fraction>", reason: "expected a number from 0 to 1")
            }
            progress = value
        } else {
            progress = 0
        }
    }

    /// Refuses options that mean nothing for `format`, rather than ignoring them silently.
    private static func checkApplicable(_ arguments: ParsedArguments, to format: WaveformOutputFormat)
        throws(UsageError)
    {
        let given = spec.options.map(\.name).filter { arguments.has($0) || arguments.value($0) != nil }
        for name in given {
            if dataOptions.contains(name), !format.isData {
                throw .other("--\(name) applies to .json and .dat output only")
            }
            if barOptions.contains(name), format.isData {
                throw .other("--\(name) applies to .txt, .svg and .png output only")
            }
            if pictureOptions.contains(name), !format.isPicture {
                throw .other("--\(name) applies to .svg and .png output only")
            }
        }
    }

    /// The whole number `text` in `range`, or `nil` when the option was not given.
    private static func integer(_ text: String?, _ label: String, in range: ClosedRange<Int>) throws(UsageError)
        -> Int?
    {
        guard let text else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw .invalidValue(
                text, for: label, reason: "expected a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// The length in pixels `text`, 0 or more, or `nil` when the option was not given.
    private static func length(_ text: String?, _ label: String) throws(UsageError) -> Double? {
        guard let text else { return nil }
        guard let value = Double(text), value.isFinite, value >= 0 else {
            throw .invalidValue(text, for: label, reason: "expected a number of pixels, 0 or more")
        }
        return value
    }

    private static func choice<T: RawRepresentable & CaseIterable>(_ text: String, _ label: String) throws(UsageError)
        -> T where T.RawValue == String
    {
        guard let value = T(rawValue: text) else {
            let names = T.allCases.map { "'\($0.rawValue)'" }
            let list = names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
            throw .invalidValue(text, for: label, reason: "expected \(list)")
        }
        return value
    }

    private static func color(_ text: String, _ label: String) throws(UsageError) -> RGBAColor {
        guard let color = WaveformColorOption.parse(text) else {
            throw .invalidValue(text, for: label, reason: WaveformColorOption.expected)
        }
        return color
    }
}
