import Foundation
import Parameters
import Testing

@testable import KnobLinkCLI

/// `knoblink tree`: its help and usage errors byte for byte, the table of the default tree and
/// of a file, and the errors for invalid files.
@Suite(.offThePool) struct TreeCommandTests {
    static let help = """
        OVERVIEW: Print the parameters of a tree, and check a tree file.

        One line per parameter, under a header: the OSC address, the display name, the
        range and the default in the parameter's own units, the unit, the taper, the
        flags and the value strings of an indexed parameter. A file that is not a valid
        tree is reported with the node and the field at fault, and the exit status is 1.

        USAGE: knoblink tree [--tree <file>] [--json]

        OPTIONS:
          --tree <file>           The tree file to read. (default: the embedded default
                                  tree)
          --json                  Print the tree as a tree file instead, a starting
                                  point for your own.
          -h, --help              Show help information.

        """

    static let usage = """
        Usage: knoblink tree [--tree <file>] [--json]
          See 'knoblink tree --help' for more information.

        """

    static let defaultTable = """
        ADDRESS             NAME        RANGE      UNIT     DEFAULT  TAPER        FLAGS                      VALUES
        /knob/gain          Gain        -60..12    dB       0        linear       canRamp,readable,writable
        /knob/frequency     Frequency   10..20000  Hz       440      logarithmic  canRamp,readable,writable
        /knob/pan           Pan         -50..50    generic  0        linear       canRamp,readable,writable
        /toggle/retrigger   Retrigger   0..1       boolean  0        linear       readable,writable
        /toggle/monophonic  Monophonic  0..1       boolean  0        linear       readable,writable
        /amp/delay          Delay       0..2       s        0        logarithmic  canRamp,readable,writable
        /amp/attack         Attack      0..5       s        0.01     logarithmic  canRamp,readable,writable
        /amp/hold           Hold        0..5       s        0        logarithmic  canRamp,readable,writable
        /amp/decay          Decay       0..5       s        0.5      logarithmic  canRamp,readable,writable
        /amp/sustain        Sustain     0..100     %        80       linear       canRamp,readable,writable
        /amp/release        Release     0..10      s        0.5      logarithmic  canRamp,readable,writable
        /mod/delay          Delay       0..2       s        0        logarithmic  canRamp,readable,writable
        /mod/attack         Attack      0..5       s        0.01     logarithmic  canRamp,readable,writable
        /mod/hold           Hold        0..5       s        0        logarithmic  canRamp,readable,writable
        /mod/decay          Decay       0..5       s        0.5      logarithmic  canRamp,readable,writable
        /mod/sustain        Sustain     0..100     %        80       linear       canRamp,readable,writable
        /mod/release        Release     0..10      s        0.5      logarithmic  canRamp,readable,writable

        """

    /// The package's `Examples/trees` folder.
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/trees")

    @Test(arguments: [["tree", "--help"], ["tree", "-h"], ["help", "tree"], ["tree", "--tree", "x", "--help"]])
    func help(arguments: [String]) throws {
        #expect(try Tool.run(Tool.knoblink, arguments) == Tool.Result(status: 0, stdout: Self.help, stderr: ""))
    }

    @Test(arguments: [
        (["tree", "extra"], "Unexpected argument 'extra'"),
        (["tree", "--tree"], "Missing value for '--tree <file>'"),
        (["tree", "--bogus"], "Unknown option '--bogus'"),
        (["tree", "--json=1"], "The option '--json' does not take a value"),
    ])
    func usageError(arguments: [String], message: String) throws {
        let result = try Tool.run(Tool.knoblink, arguments)
        #expect(result == Tool.Result(status: 64, stdout: "", stderr: "Error: \(message)\n" + Self.usage))
    }

    /// A listing that cannot be written is a failure naming standard output, not a crash of
    /// `FileHandle.write` (exit 132) nor a silent exit 0.
    @Test(arguments: [[], ["--json"]])
    func aFullStandardOutputIsAFailure(options: [String]) throws {
        let command = (["exec", "'\(Tool.knoblink.path)'", "tree"] + options).joined(separator: " ") + " > /dev/full"
        let result = try Tool.run(Tool.system("sh"), ["-c", command])
        #expect(
            result
                == Tool.Result(
                    status: 1, stdout: "", stderr: "Error: cannot write '<stdout>': No space left on device (write)\n"))
    }

    @Test func printsTheDefaultTree() throws {
        #expect(try Tool.knoblink("tree") == Tool.Result(status: 0, stdout: Self.defaultTable, stderr: ""))
    }

    /// A file with nested groups, an indexed parameter, a read-only meter and other tapers.
    @Test func printsATreeFile() throws {
        let path = Self.examples.appendingPathComponent("two-voices.json").path
        let expected = """
            ADDRESS                   NAME          RANGE      UNIT        DEFAULT  TAPER        \
            FLAGS                                   VALUES
            /master/volume            Volume        -96..6     dB          -12      linear       \
            canRamp,readable,writable
            /master/tempo             Tempo         40..240    BPM         120      linear       readable,writable
            /master/level             Output Level  0..1       linearGain  0        squareRoot   \
            omitFromPresets,meterReadOnly,readable
            /voice1/wave              Waveform      0..3       indexed     0        linear       \
            valuesHaveStrings,readable,writable     Sine, Triangle, Square, Saw
            /voice1/width             Pulse Width   1..99      %           50       linear       \
            canRamp,readable,writable
            /voice1/detune            Detune        -100..100  cents       0        linear       \
            canRamp,readable,writable
            /voice1/filter/cutoff     Cutoff        20..20000  Hz          2000     logarithmic  \
            canRamp,readable,writable
            /voice1/filter/resonance  Resonance     0..100     %           10       squared      \
            canRamp,readable,writable
            /voice1/filter/bypass     Bypass        0..1       boolean     0        linear       readable,writable

            """
        #expect(try Tool.knoblink("tree", "--tree", path) == Tool.Result(status: 0, stdout: expected, stderr: ""))
    }

    /// `--json` of the default tree is the example file, so that users can start from it.
    @Test func jsonOfTheDefaultTreeIsTheExampleFile() throws {
        let example = try String(contentsOf: Self.examples.appendingPathComponent("default.json"), encoding: .utf8)
        let result = try Tool.knoblink("tree", "--json")
        #expect(result.status == 0)
        #expect(result.stdout == example)
    }

    @Test(arguments: [
        (
            #"{"format":"knoblink-tree","version":1,"children":[{"kind":"group","identifier":"knob","children":"#
                + #"[{"kind":"parameter","identifier":"gain","address":1,"min":"x","max":1}]}]}"#,
            "'knob.gain': field 'min' must be a number"
        ),
        (
            #"{"format":"knoblink-tree","version":1,"children":[{"kind":"group","identifier":"sys","children":[]}]}"#,
            "'sys': identifier 'sys' is reserved"
        ),
        (
            #"{"format":"knoblink-tree","version":1,"children":[{"kind":"parameter","identifier":"a","address":1,"#
                + #""min":0,"max":1},{"kind":"parameter","identifier":"b","address":1,"min":0,"max":1}]}"#,
            "'b': address 1 already used by 'a'"
        ),
        (
            #"{"format":"knoblink-tree","version":1,"children":[{"kind":"parameter","identifier":"a","address":1,"#
                + #""min":0,"max":1,"colour":2}]}"#,
            "'a': unknown field 'colour'"
        ),
        (#"{"format":"knoblink-tree","version":1,"children":["#, "invalid JSON at byte 50: unexpected end of text"),
        (#"{"format":"other","version":1,"children":[]}"#, #"unsupported tree file: 'format' must be "knoblink-tree""#),
    ])
    func refusesAnInvalidFile(contents: String, message: String) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("knoblink-tree-\(UUID()).json").path
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try Tool.knoblink("tree", "--tree", path)
        #expect(result == Tool.Result(status: 1, stdout: "", stderr: "Error: \(path): \(message)\n"))
    }

    @Test func refusesAMissingFile() throws {
        let result = try Tool.knoblink("tree", "--tree", "/no-such-directory/tree.json")
        let expected = "Error: /no-such-directory/tree.json: no such file\n"
        #expect(result == Tool.Result(status: 1, stdout: "", stderr: expected))
    }

    /// A path that cannot be reached says why, in the system's words (it was `no such file`).
    @Test func aPathThroughAFileSaysNotADirectory() throws {
        let scratch = try Scratch()
        let path = try scratch.write("file", "x") + "/tree.json"
        let result = try Tool.knoblink("tree", "--tree", path)
        #expect(result == Tool.Result(status: 1, stdout: "", stderr: "Error: \(path): Not a directory\n"))
    }

    /// The TouchOSC layout in Examples is what its script makes of the default tree today, and
    /// its faders and toggles are on the tree's addresses.
    @Test func touchOSCLayoutIsCurrent() throws {
        let folder = Self.examples.deletingLastPathComponent().appendingPathComponent("touchosc")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("knoblink-\(UUID()).touchosc")
        defer { try? FileManager.default.removeItem(at: output) }
        let script = folder.appendingPathComponent("make-layout.py").path
        let made = try Tool.run(Tool.system("python3"), [script, Self.examples.path + "/default.json", output.path])
        #expect(made.status == 0, "\(made.stderr)")
        let committed = try Data(contentsOf: folder.appendingPathComponent("knoblink-default.touchosc"))
        #expect(try Data(contentsOf: output) == committed)
        let addresses = try Tool.run(
            Tool.system("python3"),
            [
                "-c",
                "import base64, re, sys, zipfile; xml = zipfile.ZipFile(sys.argv[1]).read('index.xml').decode(); "
                    + "print('\\n'.join(base64.b64decode(a).decode() for a in re.findall('osc_cs=\"([^\"]*)\"', xml)))",
                output.path,
            ])
        let expected = ParameterTree.makeDefault().allParameters.map { $0.oscAddress + "\n" }.joined()
        #expect(addresses == Tool.Result(status: 0, stdout: expected, stderr: ""))
    }

    @Test func refusesADirectory() throws {
        let path = FileManager.default.temporaryDirectory.path
        let result = try Tool.knoblink("tree", "--tree", path)
        let expected = "Error: \(path): is a directory, not a tree file\n"
        #expect(result == Tool.Result(status: 1, stdout: "", stderr: expected))
    }

    @Test(arguments: [(Float(0), "0"), (-0.0, "0"), (20000, "20000"), (0.01, "0.01"), (-60, "-60"), (1e10, "1e+10")])
    func numbersAreShortest(value: Float, text: String) {
        #expect(TreeListing.number(value) == text)
    }
}
