/// A duration as a number of seconds, for `Thread.sleep` and messages.
extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
