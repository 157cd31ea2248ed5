extension ParameterTree {
    /// A snapshot of every value by key path, leaving out parameters flagged `omitFromPresets`.
    public func makePreset(name: String? = nil) -> ParameterPreset {
        let values = snapshotValues()
        var entries: [String: ParameterValue] = [:]
        for parameter in allParameters where !parameter.flags.contains(.omitFromPresets) {
            entries[parameter.keyPath] = values[parameter.index]
        }
        return ParameterPreset(name: name, values: entries)
    }

    /// Applies a preset's values, entry by entry.
    ///
    /// Entries for unknown key paths, values outside the range (not clamped: a preset that
    /// disagrees with the tree is reported, not bent), entries that are not numbers and
    /// parameters flagged `omitFromPresets` are skipped and reported; the rest are applied with
    /// `setValue`, so observers hear them. Parameters the preset does not mention keep their values.
    /// - Returns: the entries applied and those that were not.
    @discardableResult
    public func restore(_ preset: ParameterPreset, originator: ParameterObserverToken? = nil) -> PresetRestoreReport {
        var report = PresetRestoreReport()
        for (keyPath, found) in preset.invalidEntries {
            report.issues.append(PresetIssue(keyPath: keyPath, kind: .notANumber(found: found)))
        }
        for (keyPath, _) in preset.values where parameter(forKeyPath: keyPath) == nil {
            report.issues.append(PresetIssue(keyPath: keyPath, kind: .unknownKeyPath))
        }
        for parameter in allParameters {
            guard let value = preset.values[parameter.keyPath] else { continue }
            if parameter.flags.contains(.omitFromPresets) {
                report.issues.append(PresetIssue(keyPath: parameter.keyPath, kind: .omittedFromPresets))
            } else if !value.isFinite || value < parameter.minValue || value > parameter.maxValue {
                report.issues.append(
                    PresetIssue(
                        keyPath: parameter.keyPath,
                        kind: .outOfRange(value: value, min: parameter.minValue, max: parameter.maxValue)))
            } else {
                parameter.setValue(value, originator: originator)
                report.applied.append(parameter.keyPath)
            }
        }
        report.issues.sort { $0.keyPath < $1.keyPath }
        return report
    }
}
