import Foundation

exit(KnobLinkTool.main(Array(CommandLine.arguments.dropFirst())).rawValue)
