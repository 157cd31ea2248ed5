/// What a call of `setValue` did.
public enum ParameterSetResult: Sendable, Hashable {
    /// The value changed; observers were told.
    case changed(from: ParameterValue, to: ParameterValue)
    /// The applied value (after clamping and quantising) equals the value before. Observers were
    /// told only for a touch or release event.
    case unchanged(ParameterValue)
    /// NaN was refused; the value is unchanged and nobody was told.
    case refused

    /// The value the parameter holds after the call, or `nil` if the call was refused.
    public var appliedValue: ParameterValue? {
        switch self {
        case .changed(_, let to): to
        case .unchanged(let value): value
        case .refused: nil
        }
    }

    /// Whether the value changed.
    public var changed: Bool {
        if case .changed = self { return true }
        return false
    }
}
