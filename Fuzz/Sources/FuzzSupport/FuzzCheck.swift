/// Stops the fuzzer with a message when an invariant does not hold.
///
/// A trap is what libFuzzer reports as a crash and saves the input for; `precondition` would be
/// compiled out of a `-Ounchecked` build, so this check never is.
public func fuzzCheck(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #file,
    line: UInt = #line
) {
    if !condition() {
        fatalError("fuzz invariant failed: \(message())", file: file, line: line)
    }
}
