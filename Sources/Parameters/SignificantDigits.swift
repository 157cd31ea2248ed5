/// Decimal text of a number with a range of significant digits, as ICU writes it
/// (`FloatingPointFormatStyle.precision(.significantDigits(range))`), without ICU.
///
/// The number is taken as its shortest decimal form (the digits of `Double.description`, which
/// read back to the same double), rounded half to even at the largest count of digits, with
/// trailing zeros dropped down to the smallest count. So 12.5 to two digits is "12", 445 is
/// "440" and 0.125 is "0.12".
enum SignificantDigits {
    /// `value` with `digits` significant digits, the integer part grouped with `symbols` when
    /// `grouping` is on. Zero has no sign; NaN is "NaN" and the infinities "∞" and "-∞".
    static func format(_ value: Double, _ digits: ClosedRange<Int>, symbols: NumberSymbols, grouping: Bool) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? symbols.minusSign + "∞" : "∞" }
        let minimum = max(1, digits.lowerBound)
        let maximum = max(minimum, digits.upperBound)
        var decimal = Decimal(magnitude: value.magnitude)
        decimal.round(toSignificant: maximum)
        if decimal.digits.isEmpty {
            // Zero: one digit before the point.
            decimal.exponent = 1
        }
        while decimal.digits.count > minimum, decimal.digits.last == 0 {
            decimal.digits.removeLast()
        }
        while decimal.digits.count < minimum {
            decimal.digits.append(0)
        }
        // The digits before the point (at least "0") and after it.
        var integer: [UInt8] = []
        var fraction: [UInt8] = []
        if decimal.exponent <= 0 {
            integer = [0]
            fraction = [UInt8](repeating: 0, count: -decimal.exponent) + decimal.digits
        } else {
            let point = decimal.exponent
            integer = Array(decimal.digits.prefix(point))
            if integer.count < point { integer += [UInt8](repeating: 0, count: point - integer.count) }
            fraction = Array(decimal.digits.dropFirst(point))
        }
        var text = value < 0 && !decimal.isZero ? symbols.minusSign : ""
        let groups = grouping && integer.count >= 3 + symbols.minimumGroupingDigits
        for (position, digit) in integer.enumerated() {
            if groups, position > 0, (integer.count - position) % 3 == 0 { text += symbols.groupingSeparator }
            text.unicodeScalars.append(Unicode.Scalar(48 + digit))
        }
        if !fraction.isEmpty {
            text += symbols.decimalSeparator
            for digit in fraction { text.unicodeScalars.append(Unicode.Scalar(48 + digit)) }
        }
        return text
    }

    /// A non-negative number as significant digits `d₁d₂…` and the position of the point:
    /// the value is `0.d₁d₂… × 10^exponent`. Zero has no digits.
    struct Decimal {
        var digits: [UInt8]
        var exponent: Int

        var isZero: Bool { digits.allSatisfy { $0 == 0 } }

        /// The shortest decimal digits that read back as `magnitude` (finite, not negative).
        init(magnitude: Double) {
            digits = []
            exponent = 0
            guard magnitude > 0 else { return }
            // "12.5", "1e-05", "1.2345e+20", "5e-324", "100.0".
            let text = magnitude.description
            var mantissa = Substring(text)
            var exponentPart = 0
            if let e = text.firstIndex(of: "e") {
                exponentPart = Int(text[text.index(after: e)...]) ?? 0
                mantissa = text[..<e]
            }
            var beforePoint = 0
            var seenPoint = false
            for character in mantissa.utf8 {
                if character == UInt8(ascii: ".") {
                    seenPoint = true
                    continue
                }
                let digit = character &- 48
                if digits.isEmpty && digit == 0 {
                    // A leading zero: before the point it moves nothing; after it, the point moves.
                    if seenPoint { beforePoint -= 1 }
                    continue
                }
                digits.append(digit)
                if !seenPoint { beforePoint += 1 }
            }
            while digits.last == 0 { digits.removeLast() }
            exponent = beforePoint + exponentPart
        }

        /// Rounds half to even to at most `count` significant digits.
        mutating func round(toSignificant count: Int) {
            guard digits.count > count else { return }
            let next = digits[count]
            let restNonZero = digits[(count + 1)...].contains { $0 != 0 }
            let last = count > 0 ? digits[count - 1] : 0
            let up = next > 5 || (next == 5 && (restNonZero || last % 2 == 1))
            digits.removeLast(digits.count - count)
            guard up else { return }
            var position = count - 1
            while position >= 0 {
                if digits[position] < 9 {
                    digits[position] += 1
                    return
                }
                digits[position] = 0
                position -= 1
            }
            // 9.99 → 10.0: one more digit before the point.
            digits.insert(1, at: 0)
            digits.removeLast()
            exponent += 1
        }
    }
}
