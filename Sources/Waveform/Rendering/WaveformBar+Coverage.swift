#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

extension WaveformBar {
    /// How much of the pixel at `column`, `row` (the square from (column, row) to
    /// (column + 1, row + 1)) the bar covers, 0…1: what anti-aliased edges are drawn from.
    ///
    /// The exact area, to rounding: the bar's vertical extent is integrated across the pixel's
    /// width in closed form. A straight edge halfway through a pixel gives 0.5 exactly; where a
    /// rounded end crosses the pixel, the interval is cut where the arc enters or leaves the
    /// pixel's rows, and each piece integrates the arc with `∫√(r² − u²) du`.
    public func coverage(column: Int, row: Int) -> Double {
        let left = max(Double(column), x)
        let right = min(Double(column + 1), maxX)
        let top = Double(row)
        let bottom = top + 1
        guard right > left, min(bottom, maxY) > max(top, y) else { return 0 }
        let radius = cornerRadius
        let straightRows = top >= y + radius && bottom <= maxY - radius
        let straightColumns = left >= x + radius && right <= maxX - radius
        if radius <= 0 || straightRows || straightColumns {
            return (right - left) * (straightRows ? 1 : min(bottom, maxY) - max(top, y))
        }
        let leftCentre = x + radius
        let rightCentre = maxX - radius
        var area = 0.0
        if left < leftCentre {
            area += coverage(from: left, to: min(right, leftCentre), top: top, bottom: bottom)
        }
        if min(right, rightCentre) > max(left, leftCentre) {
            area += (min(right, rightCentre) - max(left, leftCentre)) * (min(bottom, maxY) - max(top, y))
        }
        if right > rightCentre {
            area += coverage(from: max(left, rightCentre), to: right, top: top, bottom: bottom)
        }
        return area
    }

    /// The depth of the arc below the bar's top edge at `position`: 0 between the two rounded
    /// ends, `radius` at the bar's side.
    private func inset(at position: Double) -> Double {
        let distance = horizontalDistance(position)
        return cornerRadius - (max(0, cornerRadius * cornerRadius - distance * distance)).squareRoot()
    }

    /// How far `position` lies inside a rounded end, from the end's circle centre; 0 between them.
    private func horizontalDistance(_ position: Double) -> Double {
        if position < x + cornerRadius { return x + cornerRadius - position }
        if position > maxX - cornerRadius { return position - (maxX - cornerRadius) }
        return 0
    }

    /// The area between `start` and `end`, inside one rounded end, and between the rows `top`
    /// and `bottom`.
    private func coverage(from start: Double, to end: Double, top: Double, bottom: Double) -> Double {
        let radius = cornerRadius
        let centre = start < x + radius ? x + radius : maxX - radius
        // At most 2 ends and 4 crossings (each depth gives one cut on this side of the centre).
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 6) { cuts in
            var count = 0
            func add(_ cut: Double) {
                cuts[count] = cut
                count += 1
            }
            add(start)
            add(end)
            // Where the arc's depth equals the distance from the bar's top or bottom edge to one
            // of the pixel's rows, the vertical overlap changes its formula.
            for depth in [maxY - bottom, top - y, maxY - top, bottom - y] where depth > 0 && depth < radius {
                let distance = (radius * radius - (radius - depth) * (radius - depth)).squareRoot()
                let cut = start < centre ? centre - distance : centre + distance
                if cut > start && cut < end { add(cut) }
            }
            var sorted = UnsafeMutableBufferPointer(rebasing: cuts[0..<count])
            sorted.sort()
            var area = 0.0
            for piece in 1..<count where sorted[piece] > sorted[piece - 1] {
                let (a, b) = (sorted[piece - 1], sorted[piece])
                let middle = inset(at: (a + b) / 2)
                let upperIsArc = maxY - middle < bottom
                let lowerIsArc = y + middle > top
                let upper = upperIsArc ? maxY - middle : bottom
                let lower = lowerIsArc ? y + middle : top
                guard upper > lower else { continue }
                let constant = (upperIsArc ? maxY : bottom) - (lowerIsArc ? y : top)
                let arcs = Double((upperIsArc ? 1 : 0) + (lowerIsArc ? 1 : 0))
                area += constant * (b - a) - arcs * insetIntegral(from: a, to: b, centre: centre)
            }
            return area
        }
    }

    /// `∫ inset(x) dx` from `a` to `b`, which lie on one side of `centre`, a rounded end's centre.
    private func insetIntegral(from a: Double, to b: Double, centre: Double) -> Double {
        let radius = cornerRadius
        func circle(_ u: Double) -> Double {
            let clamped = min(max(u, 0), radius)
            return
                (clamped * (max(0, radius * radius - clamped * clamped)).squareRoot()
                + radius * radius * asin(clamped / radius)) / 2
        }
        let arc = abs(circle(abs(b - centre)) - circle(abs(a - centre)))
        return radius * (b - a) - arc
    }
}
