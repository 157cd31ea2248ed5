extension WaveformBar {
    /// How much of the pixel at `column`, `row` (the square from (column, row) to
    /// (column + 1, row + 1)) the bar covers, 0…1: what anti-aliased edges are drawn from.
    ///
    /// Exact for square bars and for the straight parts of rounded ones: the area is the product
    /// of the horizontal and vertical overlaps, so a pixel that a vertical edge halves gives 0.5.
    /// A pixel that a rounded end crosses is integrated over its width with the midpoint rule
    /// on 16 strips, each exact vertically (the error is below 1/500 of a pixel).
    public func coverage(column: Int, row: Int) -> Double {
        let left = max(Double(column), x)
        let right = min(Double(column + 1), maxX)
        let top = Double(row)
        let bottom = top + 1
        guard right > left, min(bottom, maxY) > max(top, y) else { return 0 }
        let radius = cornerRadius
        let straightColumns = left >= x + radius && right <= maxX - radius
        let straightRows = top >= y + radius && bottom <= maxY - radius
        if radius <= 0 || straightColumns || straightRows {
            let vertical = straightRows ? 1 : min(bottom, maxY) - max(top, y)
            return (right - left) * vertical
        }
        let strips = 16
        let stripWidth = (right - left) / Double(strips)
        var sum = 0.0
        for strip in 0..<strips {
            let sampleX = left + (Double(strip) + 0.5) * stripWidth
            let depth: Double
            if sampleX < x + radius {
                depth = x + radius - sampleX
            } else if sampleX > maxX - radius {
                depth = sampleX - (maxX - radius)
            } else {
                depth = 0
            }
            let inset = radius - (max(0, radius * radius - depth * depth)).squareRoot()
            let overlap = min(bottom, maxY - inset) - max(top, y + inset)
            if overlap > 0 { sum += overlap }
        }
        return sum * stripWidth
    }
}
