import Testing

#if canImport(XCTest)
    import XCTest
#endif

/// Reports a test failure to the testing library that is running the test.
enum FailureReporter {
    static func fail(_ message: String, at location: SourceLocation) {
        if Test.current != nil {
            Issue.record(Comment(rawValue: message), sourceLocation: location)
        } else {
            #if canImport(XCTest)
                XCTFail("\(location.fileID):\(location.line): \(message)")
            #else
                Issue.record(Comment(rawValue: message), sourceLocation: location)
            #endif
        }
    }
}
