#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// How a parameter's range maps onto the normalised 0…1 position of a knob or an OSC value.
///
/// With `lin = (value − min) / (max − min)`, each taper maps `lin` to the normalised position `n`:
///
/// | taper | `n` from `lin` | `lin` from `n` |
/// |---|---|---|
/// | linear | `lin` | `n` |
/// | logarithmic | `log10(9·lin + 1)` | `(10^n − 1) / 9` |
/// | squareRoot | `√lin` | `n²` |
/// | squared | `lin²` | `√n` |
/// | cubed | `lin³` | `∛n` |
/// | cubeRoot | `∛lin` | `n³` |
/// | exponential | `(10^lin − 1) / 9` | `log10(9·n + 1)` |
///
/// Logarithmic is CONTROLS.md 1.1's transform; exponential is its inverse, so that the two are
/// mirror images (fine resolution at the top of the range instead of the bottom). Every mapping
/// fixes 0 and 1.
public enum ParameterTaper: String, Sendable, Hashable, CaseIterable {
    case linear, logarithmic, squareRoot, squared, cubed, cubeRoot, exponential

    /// The display-scale flag bits that encode this taper.
    public var displayFlags: ParameterFlags {
        switch self {
        case .linear: []
        case .logarithmic: .displayLogarithmic
        case .squareRoot: .displaySquareRoot
        case .squared: .displaySquared
        case .cubed: .displayCubed
        case .cubeRoot: .displayCubeRoot
        case .exponential: .displayExponential
        }
    }

    /// Maps a linear position 0…1 to the normalised position (not clamped).
    @inlinable
    public func normalized(fromLinear lin: Double) -> Double {
        switch self {
        case .linear: lin
        case .logarithmic: log10(9 * lin + 1)
        case .squareRoot: lin.squareRoot()
        case .squared: lin * lin
        case .cubed: lin * lin * lin
        case .cubeRoot: cbrt(lin)
        case .exponential: (pow(10, lin) - 1) / 9
        }
    }

    /// Maps a normalised position to the linear position 0…1 (not clamped).
    @inlinable
    public func linear(fromNormalized norm: Double) -> Double {
        switch self {
        case .linear: norm
        case .logarithmic: (pow(10, norm) - 1) / 9
        case .squareRoot: norm * norm
        case .squared: norm.squareRoot()
        case .cubed: cbrt(norm)
        case .cubeRoot: norm * norm * norm
        case .exponential: log10(9 * norm + 1)
        }
    }
}
