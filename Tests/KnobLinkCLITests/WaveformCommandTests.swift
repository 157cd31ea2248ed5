import Controls
import Foundation
import Testing
import Waveform

@testable import KnobLinkCLI

/// `knoblink waveform`, run as a user runs it: help and errors byte for byte, every output
/// type, audiowaveform's golden files reproduced through the command line.
@Suite struct WaveformCommandTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("WaveformTests/Fixtures")

    static func fixture(_ name: String) -> String {
        fixtures.appendingPathComponent(name).path
    }

    static let help = """
        OVERVIEW: Write an audio file's waveform: data, text, pictures.

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

        USAGE: knoblink waveform [<options>] <file>

        ARGUMENTS:
          <file>                  The audio file (WAV, AIFF, CAF, FLAC, Ogg, Opus, MP3).

        OPTIONS:
          -o, --output <file>     Where to write. (default: standard output)
          --format <format>       json, dat, svg, png or txt. (default: from --output)
          -z, --zoom <frames>     Frames per min/max pair, or per bar. (default: 256)
          --pixels-per-second <count>
                                  Pairs or bars per second of audio.
          --bars <count>          The number of bars (text and pictures), 1 to 65536.
          -b, --bits <bits>       8 or 16 bits of min/max data. (default: 16)
          --split-channels        Min/max data per channel instead of the channels
                                  mixed.
          --reduction <reduction> How bars are made: peak, rms or db. (default: peak)
          --no-normalize          Keep bars at their level of full scale; the loudest is
                                  1 otherwise.
          -w, --width <pixels>    The picture's width. (default: 800)
          --height <pixels>       The picture's height. (default: 120)
          --bar-width <pixels>    The bar width wished for. (default: 8)
          --bar-gap <pixels>      The space between bars. (default: 2)
          --bar-style <style>     rounded or square. (default: rounded)
          --progress <fraction>   How much is played, 0 to 1. (default: 0)
          --theme <theme>         Where colours come from: light or dark. (default:
                                  light)
          --played-color <color>  The played bars' colour. (default: the theme's)
          --unplayed-color <color>
                                  The unplayed bars' colour. (default: the theme's)
          --waveform-color <color>
                                  The same as --unplayed-color (audiowaveform's name).
          --background-color <color>
                                  The colour behind the bars. (default: transparent)
          -h, --help              Show help information.

        """

    static let usage = """
        Usage: knoblink waveform [<options>] <file>
          See 'knoblink waveform --help' for more information.

        """

    @Test(arguments: [
        ["waveform", "--help"], ["waveform", "-h"], ["help", "waveform"], ["waveform", "x.wav", "-h"],
    ])
    func help(arguments: [String]) throws {
        #expect(try Tool.run(Tool.knoblink, arguments) == Tool.Result(status: 0, stdout: Self.help, stderr: ""))
    }

    @Test(arguments: [
        ([], "Missing expected argument '<file>'"),
        (["a.wav", "b.wav"], "Unexpected argument 'b.wav'"),
        (["a.wav", "--zoom", "3", "--bars", "4"], "--zoom and --bars cannot be used together"),
        (["a.wav", "--pixels-per-second", "3", "-z", "4"], "--zoom and --pixels-per-second cannot be used together"),
        (
            ["a.wav", "-z", "0", "-o", "a.dat"],
            "The value '0' is invalid for '--zoom <frames>': expected a whole number from 1 to 2147483647"
        ),
        (
            ["a.wav", "--bars", "65537"],
            "The value '65537' is invalid for '--bars <count>': expected a whole number from 1 to 65536"
        ),
        (
            ["a.wav", "-o", "a.mp4"],
            "The value 'a.mp4' is invalid for '--output <file>': the extension is not .json, .dat, .svg, .png or .txt; use --format"
        ),
        (
            ["a.wav", "--format", "gif"],
            "The value 'gif' is invalid for '--format <format>': expected 'json', 'dat', 'svg', 'png' or 'txt'"
        ),
        (["a.wav", "-o", "a.json", "--bits", "12"], "The value '12' is invalid for '--bits <bits>': expected 8 or 16"),
        (["a.wav", "-o", "a.png", "--bits", "8"], "--bits applies to .json and .dat output only"),
        (["a.wav", "-o", "a.dat", "--reduction", "rms"], "--reduction applies to .txt, .svg and .png output only"),
        (["a.wav", "--width", "100"], "--width applies to .svg and .png output only"),
        (
            ["a.wav", "-o", "a.svg", "--reduction", "loud"],
            "The value 'loud' is invalid for '--reduction <reduction>': expected 'peak', 'rms' or 'db'"
        ),
        (
            ["a.wav", "-o", "a.svg", "--bar-style", "round"],
            "The value 'round' is invalid for '--bar-style <style>': expected 'rounded' or 'square'"
        ),
        (
            ["a.wav", "-o", "a.svg", "--theme", "blue"],
            "The value 'blue' is invalid for '--theme <theme>': expected 'light' or 'dark'"
        ),
        (
            ["a.wav", "-o", "a.svg", "--progress", "1.5"],
            "The value '1.5' is invalid for '--progress <fraction>': expected a number from 0 to 1"
        ),
        (
            ["a.wav", "-o", "a.png", "--waveform-color", "red"],
            "The value 'red' is invalid for '--waveform-color <color>': expected a colour as RRGGBB or RRGGBBAA in hexadecimal"
        ),
        (
            ["a.wav", "-o", "a.png", "-w", "0"],
            "The value '0' is invalid for '--width <pixels>': expected a whole number from 1 to 16384"
        ),
        (
            ["a.wav", "-o", "a.png", "--bar-gap", "-1"],
            "The value '-1' is invalid for '--bar-gap <pixels>': expected a number of pixels, 0 or more"
        ),
        (["a.wav", "--height"], "Missing value for '--height <pixels>'"),
    ])
    func usageErrors(arguments: [String], message: String) throws {
        let result = try Tool.run(Tool.knoblink, ["waveform"] + arguments)
        #expect(result == Tool.Result(status: 64, stdout: "", stderr: "Error: \(message)\n" + Self.usage))
    }

    @Test func aMissingFileIsAFailureNamingIt() throws {
        let result = try Tool.knoblink("waveform", "/nonexistent/a.wav", "-o", "/nonexistent/a.json")
        #expect(
            result
                == Tool.Result(
                    status: 1, stdout: "", stderr: "Error: cannot decode '/nonexistent/a.wav': no such file\n"))
    }

    @Test func aPixelsPerSecondAboveTheSampleRateIsAUsageError() throws {
        let result = try Tool.knoblink("waveform", Self.fixture("stereo-sine.wav"), "--pixels-per-second", "50000")
        #expect(result.status == 64)
        #expect(
            result.stderr.hasPrefix(
                "Error: The value '50000' is invalid for '--pixels-per-second <count>': more than the sample rate, 44100 frames per second\n"
            ))
    }

    @Test(arguments: [
        (["stereo-sine.wav"], "stereo-sine.z256.json", "json"),
        (["stereo-sine.wav"], "stereo-sine.z256.dat", "dat"),
        (["stereo-sine.flac"], "stereo-sine.z256.json", "json"),
        (["mono-sweep.wav", "-z", "512", "-b", "8"], "mono-sweep.z512.b8.dat", "dat"),
        (["six-channels.wav", "--zoom=300", "--split-channels"], "six-channels.z300.split.json", "json"),
        (["float-loud.wav", "--pixels-per-second", "147", "--split-channels"], "float-loud.z300.split.json", "json"),
    ])
    func dataIsAudiowaveformsByteForByte(arguments: [String], golden: String, format: String) throws {
        let scratch = try Scratch()
        let output = scratch.path("out.\(format)")
        let result = try Tool.run(
            Tool.knoblink, ["waveform", Self.fixture(arguments[0]), "-o", output] + arguments.dropFirst())
        #expect(
            result == Tool.Result(status: 0, stdout: "", stderr: ""), "no progress bar when stderr is not a terminal")
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: output))
                == Data(contentsOf: Self.fixtures.appendingPathComponent(golden)))
    }

    @Test(arguments: [
        (["stereo-sine.wav"], "stereo-sine.z256.json", "json"),
        (["six-channels.wav", "-z", "300", "--split-channels"], "six-channels.z300.split.json", "json"),
    ])
    func dataOnStandardOutputIsAudiowaveformsByteForByte(arguments: [String], golden: String, format: String) throws {
        let result = try Tool.run(
            Tool.knoblink, ["waveform", Self.fixture(arguments[0]), "--format", format] + arguments.dropFirst())
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(
            result.stdout
                == String(decoding: try Data(contentsOf: Self.fixtures.appendingPathComponent(golden)), as: UTF8.self))
    }

    @Test(arguments: [
        (["stereo-sine.wav"], "stereo-sine.z256.dat", "dat"),
        (["mono-sweep.wav", "-z", "512", "-b", "8"], "mono-sweep.z512.b8.dat", "dat"),
    ])
    func binaryDataOnStandardOutputRedirectedToAFile(arguments: [String], golden: String, format: String) throws {
        let scratch = try Scratch()
        let output = scratch.path("redirected")
        let command =
            (["exec", Tool.knoblink.path, "waveform", Self.fixture(arguments[0]), "--format", format]
            + arguments.dropFirst()).map { "'\($0)'" }.joined(separator: " ") + " > '\(output)'"
        let result = try Tool.run(Tool.system("sh"), ["-c", command])
        #expect(result == Tool.Result(status: 0, stdout: "", stderr: ""))
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: output))
                == Data(contentsOf: Self.fixtures.appendingPathComponent(golden)))
    }

    @Test(arguments: ["dat", "json"])
    func aFullDeviceIsAFailureNamingIt(format: String) throws {
        let result = try Tool.knoblink(
            "waveform", Self.fixture("stereo-sine.wav"), "-o", "/dev/full", "--format", format)
        #expect(result.status == 1)
        #expect(result.stderr == "Error: cannot write '/dev/full': No space left on device (write)\n")
    }

    @Test(arguments: ["out.dat", "out.json"])
    func aFileThatCannotBeDecodedLeavesTheOutputAsItWas(name: String) throws {
        let scratch = try Scratch()
        let input = try scratch.write("not-audio.wav", "this is not audio")
        let output = try scratch.write(name, "old contents")
        let result = try Tool.knoblink("waveform", input, "-o", output)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: cannot decode"))
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "old contents")
        let left = try FileManager.default.contentsOfDirectory(atPath: scratch.directory.path)
        #expect(left.sorted() == ["not-audio.wav", name], "no temporary file left")
    }

    @Test func textGoesToStandardOutputWithOneBarPerLine() throws {
        let result = try Tool.knoblink("waveform", Self.fixture("stereo-sine.wav"), "--bars", "4")
        #expect(result.status == 0)
        #expect(
            result.stdout == """
                # knoblink waveform stereo-sine.wav
                # 44100 Hz, 2 channels, 132300 frames, 3.000 s
                # 4 bars, peak, the loudest bar is 1
                # start (s)\theight
                0.000\t1.0000
                0.750\t1.0000
                1.500\t1.0000
                2.250\t1.0000

                """)
    }

    @Test func textHasAsManyBarsAsTheDefaultPicture() throws {
        let result = try Tool.knoblink(
            "waveform", Self.fixture("mono-sweep.wav"), "--reduction", "rms", "--no-normalize")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 4 + 80)
        #expect(lines[2] == "# 80 bars, rms, full scale is 1")
    }

    @Test func pngHasTheRequestedSize() throws {
        let scratch = try Scratch()
        let output = scratch.path("out.png")
        let result = try Tool.knoblink(
            "waveform", Self.fixture("mono-sweep.wav"), "-o", output, "-w", "300", "--height", "64", "--progress",
            "0.5",
            "--played-color", "#FF0000", "--background-color", "00000000")
        #expect(result == Tool.Result(status: 0, stdout: "", stderr: ""))
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(String(decoding: bytes[12..<16], as: UTF8.self) == "IHDR")
        #expect(Array(bytes[16..<24]) == [0, 0, 1, 44, 0, 0, 0, 64])
    }

    @Test func svgByFormatOnStandardOutput() throws {
        let result = try Tool.knoblink(
            "waveform", Self.fixture("mono-sweep.wav"), "--format", "svg", "--bars", "10", "-w", "100", "--height",
            "20", "--bar-style", "square", "--progress", "0.45", "--played-color", "112233", "--unplayed-color",
            "445566cc")
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"20\""))
        #expect(result.stdout.components(separatedBy: "<rect ").count - 1 == 10 + 1 + 2)
        #expect(result.stdout.contains("fill=\"#112233\""))
        #expect(result.stdout.contains("fill=\"#445566\" fill-opacity=\"0.8\""))
    }

    @Test(arguments: [
        ("#FF000080", RGBAColor(red8: 255, green: 0, blue: 0, alpha: 128)),
        ("00ff00", RGBAColor(red8: 0, green: 255, blue: 0)),
    ])
    func coloursAreAudiowaveformsRRGGBBAA(text: String, color: RGBAColor) {
        #expect(WaveformColorOption.parse(text) == color)
    }

    @Test(arguments: ["", "#12345", "12345g", "ff000080ff", "+12345"])
    func malformedColoursAreRefused(text: String) {
        #expect(WaveformColorOption.parse(text) == nil)
    }

    @Test func theProgressBarLine() {
        #expect(
            WaveformProgressBar.line(name: "a.wav", progress: WaveformProgress(frames: 10, fraction: 0.5))
                == "Decoding a.wav  [###############---------------]  50%")
        #expect(
            WaveformProgressBar.line(name: "a.wav", progress: WaveformProgress(frames: 10, fraction: 1))
                == "Decoding a.wav  [##############################] 100%")
        #expect(
            WaveformProgressBar.line(name: "a.mp3", progress: WaveformProgress(frames: 4096, fraction: nil))
                == "Decoding a.mp3  4096 frames")
    }

    @Test func anOutputThatCannotBeWrittenIsAFailure() throws {
        let result = try Tool.knoblink("waveform", Self.fixture("mono-sweep.wav"), "-o", "/nonexistent/dir/a.json")
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("Error: cannot write '/nonexistent/dir/a.json': "))
    }

    @Test func aZoomGivingTooManyBarsIsAFailure() throws {
        let result = try Tool.knoblink("waveform", Self.fixture("stereo-sine.wav"), "-z", "1", "--format", "svg")
        let message =
            "Error: the zoom gives 132300 bars, more than 65536; use a larger --zoom, fewer --pixels-per-second or --bars\n"
        #expect(result == Tool.Result(status: 1, stdout: "", stderr: message))
    }

    @Test func aZoomGivesOneBarPerPair() throws {
        let result = try Tool.knoblink("waveform", Self.fixture("stereo-sine.wav"), "--zoom", "44100")
        #expect(result.stdout.split(separator: "\n").count == 4 + 3)
        #expect(result.stdout.contains("# 3 bars, peak, the loudest bar is 1\n"))
    }

    @Test(arguments: [
        ("out.json", WaveformOutputFormat?.some(.json)), ("A.PNG", .png), ("dir/x.svg", .svg), ("x.tar.dat", .dat),
        ("notes.txt", .txt), ("dir.json/file", nil), ("noextension", nil), ("x.wav", nil), ("x.", nil),
    ])
    func theFormatComesFromTheExtension(path: String, format: WaveformOutputFormat?) {
        #expect(WaveformOutputFormat(path: path) == format)
    }
}
