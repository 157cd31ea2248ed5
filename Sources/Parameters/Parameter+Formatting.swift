#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Parameter {
    /// The text shown to users for a value (`nil`: the current value).
    ///
    /// The nearest implementor string-from-value hook decides if one is set. Otherwise an
    /// indexed parameter with value strings shows the string of the (rounded) value, and every
    /// other parameter uses ``formatter`` (CONTROLS.md 1.7).
    public func string(fromValue value: ParameterValue? = nil, locale: Locale = ValueFormatter.defaultLocale) -> String
    {
        if let hook = storage.resolvedHook(forParameter: index, { $0.stringFromValue }) {
            return hook(self, value)
        }
        let value = value ?? self.value
        if let string = valueString(for: value) { return string }
        return formatter.forDisplay(Double(value), locale: locale)
    }

    /// The value string of an indexed value, or `nil` when there is none.
    public func valueString(for value: ParameterValue) -> String? {
        guard !valueStrings.isEmpty, value.isFinite else { return nil }
        let position = Int((value - minValue).rounded(.toNearestOrAwayFromZero))
        return valueStrings.indices.contains(position) ? valueStrings[position] : nil
    }

    /// The text put in an editor: 1…6 significant digits, no grouping, no suffix.
    public func editingString(fromValue value: ParameterValue? = nil, locale: Locale = ValueFormatter.defaultLocale)
        -> String
    {
        formatter.forEditing(Double(value ?? self.value), locale: locale)
    }

    /// The display text in ASCII, for the server's `P/str` (PROTOCOL.md §2 and 9.3).
    ///
    /// `°` becomes `deg`, and any other character outside ASCII becomes `?`. Always in the
    /// `en_US` locale. ``value(fromString:locale:)`` reads it back (value strings aside).
    public func asciiDisplayString(fromValue value: ParameterValue? = nil) -> String {
        ValueParser.ascii(string(fromValue: value))
    }

    /// Parses display text to a value (not clamped; `setValue` clamps).
    ///
    /// The nearest implementor value-from-string hook decides if one is set; otherwise
    /// ``ValueParser`` for the parameter's unit and value strings.
    /// - Throws: ``ValueParsingError`` when the text does not parse.
    public func value(fromString text: String, locale: Locale = ValueFormatter.defaultLocale)
        throws(ValueParsingError) -> ParameterValue
    {
        if let hook = storage.resolvedHook(forParameter: index, { $0.valueFromString }) {
            guard let value = hook(self, text) else { throw .refusedByImplementor(text) }
            if value.isNaN { throw .nan }
            return value
        }
        let parser = ValueParser(
            unit: unit, valueStrings: valueStrings, minValue: Double(minValue), unitName: spec.unitName, locale: locale)
        return ParameterValue(try parser.parse(text))
    }
}
