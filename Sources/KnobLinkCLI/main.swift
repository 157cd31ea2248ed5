#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

exit(KnobLinkTool.main(Array(CommandLine.arguments.dropFirst())).rawValue)
