/// Which view of a parameter's value `P/get`, `P/raw/get` and `P/str/get` answer with: the
/// normalised value, the value in the parameter's units, or its text.
enum ParameterReadFacet {
    case normalized
    case raw
    case text
}
