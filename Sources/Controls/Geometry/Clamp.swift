extension Comparable {
    /// The value limited to `range`.
    public func clamped(to range: ClosedRange<Self>) -> Self {
        min(max(self, range.lowerBound), range.upperBound)
    }
}

extension BinaryFloatingPoint {
    /// The position of the value in `range` as a fraction, clamped to `0…1` (−13 → 0 and 13 → 1
    /// in 0…1; 5.5 in 4…7 → 0.5). An empty range (lower == upper) gives 0.
    public func normalized(in range: ClosedRange<Self>) -> Self {
        let span = range.upperBound - range.lowerBound
        guard span > 0 else { return 0 }
        return ((clamped(to: range) - range.lowerBound) / span)
    }
}
