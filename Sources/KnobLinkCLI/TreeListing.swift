import Parameters

/// The table `knoblink tree` prints: one line per parameter, in columns, under a header line.
///
/// Columns: the OSC address (without a server's `--root`), the display name, the range and the
/// default in the parameter's own units, the unit (its symbol, such as `dB`, or its name when it
/// has none, such as `boolean`), the taper, the flags (AudioUnit option names, in bit order) and
/// the value strings of an indexed parameter. Columns are separated by two spaces and padded to
/// the widest entry; lines carry no trailing spaces.
enum TreeListing {
    static let header = ["ADDRESS", "NAME", "RANGE", "UNIT", "DEFAULT", "TAPER", "FLAGS", "VALUES"]

    /// The whole table, ending with a newline.
    static func text(of tree: ParameterTree) -> String {
        let rows = [header] + tree.allParameters.map(row)
        var widths = Array(repeating: 0, count: header.count)
        for row in rows {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        return rows.map { row in
            var line = ""
            for (column, cell) in row.enumerated() {
                line += cell
                if column < row.count - 1 { line += String(repeating: " ", count: widths[column] - cell.count + 2) }
            }
            while line.last == " " { line.removeLast() }
            return line + "\n"
        }.joined()
    }

    /// The cells of one parameter.
    static func row(_ parameter: Parameter) -> [String] {
        [
            parameter.oscAddress,
            parameter.displayName,
            "\(number(parameter.minValue))..\(number(parameter.maxValue))",
            unit(of: parameter),
            number(parameter.defaultValue),
            parameter.taper.rawValue,
            flagNames(parameter.flags),
            parameter.valueStrings.joined(separator: ", "),
        ]
    }

    /// The unit symbol, or for units without one the unit's name, so that a boolean reads as such.
    static func unit(of parameter: Parameter) -> String {
        if !parameter.unitName.isEmpty { return parameter.unitName }
        return parameter.unit.name
    }

    /// The flags' tree-file names joined by commas (the display scale is the taper column); `-` for none.
    static func flagNames(_ flags: ParameterFlags) -> String {
        let names = ParameterFlags.named.filter { flags.contains($0.flag) }.map(\.name)
        return names.isEmpty ? "-" : names.joined(separator: ",")
    }

    /// The shortest text that reads back as the same `Float`, without a `.0` on whole numbers.
    static func number(_ value: Float) -> String {
        if value == 0 { return "0" }
        let text = value.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}
