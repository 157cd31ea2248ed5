import Parameters

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// `knoblink tree`: prints the parameters of a tree file, or of the embedded default tree, and
/// so validates a tree file before a server is started with it.
struct TreeCommand: RunnableCommand {
    static let name = "tree"

    static let spec = CommandSpec(
        name: name,
        abstract: "Print the parameters of a tree, and check a tree file.",
        discussion: """
            One line per parameter, under a header: the OSC address, the display name, the range
            and the default in the parameter's own units, the unit, the taper, the flags and the
            value strings of an indexed parameter. A file that is not a valid tree is reported
            with the node and the field at fault, and the exit status is 1.
            """,
        options: [
            .option("tree", value: "file", help: "The tree file to read. (default: the embedded default tree)"),
            .flag("json", help: "Print the tree as a tree file instead, a starting point for your own."),
        ]
    )

    var path: String?
    var printsJSON: Bool

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        try PositionalReader(arguments.positionals).finish()
        path = arguments.value("tree")
        printsJSON = arguments.has("json")
    }

    func run() throws {
        let tree = try TreeLoader.load(path)
        let text = printsJSON ? tree.jsonString() : TreeListing.text(of: tree)
        try KnobLinkTool.writeResult(text.hasSuffix("\n") ? text : text + "\n")
    }
}
