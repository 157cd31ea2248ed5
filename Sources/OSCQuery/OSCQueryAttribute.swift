/// The attributes a client may ask for alone, as in `GET /knob/gain?VALUE` (PROTOCOL.md section 7).
///
/// Names are upper case and case-sensitive, as in the OSCQuery proposal; any other query is a 400.
public enum OSCQueryAttribute: String, Sendable, Hashable, CaseIterable {
    case fullPath = "FULL_PATH"
    case contents = "CONTENTS"
    case type = "TYPE"
    case value = "VALUE"
    case range = "RANGE"
    case access = "ACCESS"
    case description = "DESCRIPTION"
    case unit = "UNIT"
    case clipMode = "CLIPMODE"
    case extendedType = "EXTENDED_TYPE"
}
