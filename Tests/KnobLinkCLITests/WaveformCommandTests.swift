import Controls
import Foundation
import Testing
import Waveform

@testable import KnobLinkCLI

/// `knoblink waveform`, run as a user runs it: help and errors byte for byte, every output
/// type, audiowaveform's golden files reproduced through the command line.
@Suite(.offThePool) struct WaveformCommandTests {
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
        (
            ["a.wav", "-o", "a.png", "--bars", "65536"],
            "The value '65536' is invalid for '--bars <count>': at most 800 bars fit in a picture 800 pixels wide"
                + " (one a pixel); use fewer --bars or a larger --width"
        ),
        (
            ["a.wav", "--format", "svg", "-w", "100", "--bars", "101"],
            "The value '101' is invalid for '--bars <count>': at most 100 bars fit in a picture 100 pixels wide"
                + " (one a pixel); use fewer --bars or a larger --width"
        ),
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

    /// A device is written in place, never replaced: `/dev/full` fails every write, and the
    /// failure is reported (it once was renamed over for pictures and text, exit 0).
    @Test(arguments: ["dat", "json", "png", "svg", "txt"])
    func aFullDeviceIsAFailureNamingIt(format: String) throws {
        let result = try Tool.knoblink(
            "waveform", Self.fixture("stereo-sine.wav"), "-o", "/dev/full", "--format", format)
        #expect(result.status == 1)
        #expect(result.stderr == "Error: cannot write '/dev/full': No space left on device (write)\n")
    }

    /// A FIFO is written in place: the reader at its other end gets the file, and the FIFO is
    /// still a FIFO (a temporary file renamed over it left the reader waiting, here for the 5 s
    /// that `timeout` gives it).
    @Test(arguments: ["png", "svg", "txt", "dat", "json"])
    func aFIFOIsWrittenInPlace(format: String) throws {
        let scratch = try Scratch()
        let fifo = scratch.path("fifo")
        try #require(mkfifo(fifo, 0o600) == 0)
        let expected = scratch.path("expected.\(format)")
        let arguments = [Self.fixture("mono-sweep.wav"), "--format", format]
        try #require(try Tool.run(Tool.knoblink, ["waveform"] + arguments + ["-o", expected]).status == 0)
        let received = scratch.path("received")
        let command =
            "timeout 5 cat '\(fifo)' > '\(received)' & "
            + (["'\(Tool.knoblink.path)'", "waveform"] + arguments.map { "'\($0)'" } + ["-o", "'\(fifo)'"])
            .joined(separator: " ") + "; status=$?; wait; exit $status"
        let result = try Tool.run(Tool.system("sh"), ["-c", command])
        #expect(result == Tool.Result(status: 0, stdout: "", stderr: ""))
        var status = stat()
        #expect(stat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "the FIFO is still a FIFO")
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: received)) == Data(contentsOf: URL(fileURLWithPath: expected)))
    }

    /// A regular file is replaced through a temporary file: whole, with its permissions, and
    /// nothing else left in the directory.
    @Test(arguments: ["png", "svg", "txt"])
    func aRegularFileIsReplacedWhole(format: String) throws {
        let scratch = try Scratch()
        let output = try scratch.write("out.\(format)", "old contents")
        try #require(chmod(output, 0o640) == 0)
        let result = try Tool.knoblink("waveform", Self.fixture("mono-sweep.wav"), "-o", output)
        #expect(result == Tool.Result(status: 0, stdout: "", stderr: ""))
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) != Data("old contents".utf8))
        let attributes = try FileManager.default.attributesOfItem(atPath: output)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.directory.path) == ["out.\(format)"])
    }

    /// Standard output on a full device is a failure naming it, not a crash (`try!` in
    /// `FileHandle.write`, exit 132).
    @Test(arguments: ["png", "svg", "txt", "dat", "json"])
    func aFullStandardOutputIsAFailureNamingIt(format: String) throws {
        let command = "exec '\(Tool.knoblink.path)' waveform '\(Self.fixture("mono-sweep.wav"))' --format \(format)"
        let result = try Tool.run(Tool.system("sh"), ["-c", command + " > /dev/full"])
        #expect(
            result
                == Tool.Result(
                    status: 1, stdout: "", stderr: "Error: cannot write '<stdout>': No space left on device (write)\n"))
    }

    /// Every output that cannot be made names the path and the system's reason, in the same
    /// words whatever the format (pictures once had Foundation's, such as `The file doesn't exist`).
    @Test(arguments: ["png", "svg", "txt", "dat", "json"])
    func anOutputThatCannotBeMadeNamesTheSystemsReason(format: String) throws {
        let scratch = try Scratch()
        let missing = scratch.path("missing/out.\(format)")
        let result = try Tool.knoblink("waveform", Self.fixture("mono-sweep.wav"), "-o", missing)
        #expect(
            result
                == Tool.Result(
                    status: 1, stdout: "",
                    stderr: "Error: cannot write '\(missing)': No such file or directory (open)\n"))
        let directory = try scratch.subdirectory("dir")
        let intoDirectory = try Tool.knoblink(
            "waveform", Self.fixture("mono-sweep.wav"), "--format", format, "-o", directory)
        #expect(
            intoDirectory
                == Tool.Result(
                    status: 1, stdout: "", stderr: "Error: cannot write '\(directory)': Is a directory (open)\n"))
    }

    /// SIGINT or SIGTERM while the file is written removes the temporary file, says so and exits
    /// with 130. The input is a sparse WAV of 4 GB of silence, long enough to be interrupted.
    @Test(arguments: [(SIGINT, "k.dat"), (SIGTERM, "k.json"), (SIGINT, "k.png")])
    func aSignalRemovesTheTemporaryFile(signal: Int32, name: String) throws {
        let scratch = try Scratch()
        let input = try Self.longSilence(in: scratch)
        let process = try RunningProcess(Tool.knoblink, ["waveform", input, "-o", scratch.path(name)])
        let isTemporary = { (file: String) in file.hasPrefix(".\(name).") && file.hasSuffix(".tmp") }
        let started = process.wait { _ in
            let files = (try? FileManager.default.contentsOfDirectory(atPath: scratch.directory.path)) ?? []
            return files.contains(where: isTemporary)
        }
        try #require(started, "the temporary file appears")
        let status = signal == SIGINT ? process.interrupt() : process.terminate()
        #expect(status == 130)
        #expect(process.stderr == "Error: interrupted\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.directory.path) == ["long.wav"])
    }

    /// Ctrl-C while the output, a FIFO, waits for its reader ends the command (the handler
    /// once waited for ever on the lock that the blocked open held).
    @Test(arguments: ["png", "dat"])
    func aSignalEndsAWaitForAFIFOsReader(format: String) throws {
        let scratch = try Scratch()
        let fifo = scratch.path("fifo")
        try #require(mkfifo(fifo, 0o600) == 0)
        let process = try RunningProcess(
            Tool.knoblink, ["waveform", Self.fixture("mono-sweep.wav"), "--format", format, "-o", fifo])
        // Time to reach the open, which blocks: the signals are caught from before it.
        Thread.sleep(forTimeInterval: 1)
        try #require(process.isRunning)
        #expect(process.interrupt() == 130)
        #expect(process.stderr == "Error: interrupted\n")
    }

    /// A mono 16-bit WAV whose data, almost 4 GB of zeros, is a hole in the file: it takes no
    /// disk, and decoding it takes far longer than a test waits.
    static func longSilence(in scratch: Scratch) throws -> String {
        let dataSize: UInt32 = 0xFFFF_0000
        var header = Data("RIFF".utf8)
        func append(_ value: some FixedWidthInteger) {
            withUnsafeBytes(of: value.littleEndian) { header.append(contentsOf: $0) }
        }
        append(UInt32(36) &+ dataSize)
        header.append(contentsOf: Data("WAVEfmt ".utf8))
        append(UInt32(16))
        append(UInt16(1))
        append(UInt16(1))
        append(UInt32(44_100))
        append(UInt32(88_200))
        append(UInt16(2))
        append(UInt16(16))
        header.append(contentsOf: Data("data".utf8))
        append(dataSize)
        let path = scratch.path("long.wav")
        try header.write(to: URL(fileURLWithPath: path))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.truncate(atOffset: UInt64(header.count) + UInt64(dataSize))
        return path
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

    /// A zoom that gives more bars than the picture has pixels is refused rather than drawn as
    /// a grey smear.
    @Test func aZoomGivingMoreBarsThanPixelsIsAUsageError() throws {
        let result = try Tool.knoblink(
            "waveform", Self.fixture("mono-sweep.wav"), "-z", "1000", "-w", "100", "--format", "png")
        let message =
            "Error: the zoom gives 132 bars, more than fit in a picture 100 pixels wide (100, one a pixel); use a"
            + " larger --zoom, fewer --pixels-per-second or a larger --width\n"
        #expect(result == Tool.Result(status: 64, stdout: "", stderr: message + Self.usage))
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
