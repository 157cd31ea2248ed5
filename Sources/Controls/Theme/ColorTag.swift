/// The six colour settings of a ``Theme``; the raw value is the asset name's suffix.
public enum ColorTag: String, Sendable, Hashable, CaseIterable {
    /// The background track of a knob.
    case controlBackgroundColor
    /// The value arc, the indicator and the toggle's mark.
    case controlForegroundColor
    /// Titles and labels.
    case textColor
    /// The value editor's background.
    case editorBackgroundColor
    /// The editor's Cancel button.
    case editorCancelButtonColor
    /// The editor's OK button.
    case editorOKButtonColor
}
