import Parameters

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension KnobFeature {
    /// A knob's state.
    public struct State: Sendable, Equatable, Identifiable {
        /// The parameter's address (unless given), or a random identifier for a knob without a
        /// parameter.
        public let id: UInt64
        /// The bound parameter, or `nil`.
        public let parameterReference: ParameterReference?
        /// The identifier of the observation effect; `nil` without a parameter.
        public let valueObservationCancelID: String?
        /// The knob's name.
        public var displayName: String
        /// The arc.
        public var track: TrackFeature.State
        /// The title.
        public var title: TitleFeature.State
        /// The knob a surface should scroll to, or `nil`.
        public var scrollToDestination: UInt64?
        /// How values are shown.
        public var formatter: ValueFormatter
        /// The open value editor, or `nil`.
        public var editor: ValueEditorState?
        /// The token of the knob's observer while it observes its parameter.
        public var observerToken: ParameterObserverToken?
        /// The theme given when the knob started.
        public var theme: Theme?
        /// The gesture holding the knob, or `nil` when nobody holds it.
        public var gesture: KnobGesture?
        /// The latest value that arrived from elsewhere while the knob was held, shown on release.
        public var heldValue: Double?

        /// Creates the state of a knob bound to `parameter`, showing its current value.
        ///
        /// - Parameters:
        ///   - parameter: the parameter to bind.
        ///   - formatter: how to show values; the parameter's unit formatter by default.
        ///   - id: the knob's identifier; the parameter's address by default (give another one to
        ///     show a parameter on two knobs of one surface).
        public init(parameter: Parameter, formatter: ValueFormatter? = nil, id: UInt64? = nil) {
            let formatter = formatter ?? parameter.formatter
            let id = id ?? parameter.address
            self.id = id
            parameterReference = ParameterReference(parameter)
            valueObservationCancelID = "KnobFeature.valueObservation[\(id)]"
            displayName = parameter.displayName
            track = TrackFeature.State(
                norm: parameter.transform.valueToNorm(Double(parameter.value)), normValueTransform: parameter.transform)
            title = TitleFeature.State(displayName: parameter.displayName, formatter: formatter, id: id)
            self.formatter = formatter
        }

        /// Creates the state of a knob without a parameter.
        ///
        /// - Parameters:
        ///   - value: the starting value.
        ///   - displayName: the knob's name.
        ///   - minimumValue: the lower end of the range.
        ///   - maximumValue: the upper end of the range.
        ///   - logarithmic: whether the range has a logarithmic taper.
        ///   - id: the knob's identifier; by default a random UUID folded to 64 bits.
        public init(
            value: Double,
            displayName: String,
            minimumValue: Double,
            maximumValue: Double,
            logarithmic: Bool = false,
            id: UInt64 = UUID().asUInt64
        ) {
            let transform = NormValueTransform(
                minimumValue: minimumValue, maximumValue: maximumValue, logScale: logarithmic)
            let formatter = ValueFormatter.general()
            self.id = id
            parameterReference = nil
            valueObservationCancelID = nil
            self.displayName = displayName
            track = TrackFeature.State(norm: transform.valueToNorm(value), normValueTransform: transform)
            title = TitleFeature.State(displayName: displayName, formatter: formatter, id: id)
            self.formatter = formatter
        }

        /// The bound parameter, or `nil`.
        public var parameter: Parameter? {
            parameterReference?.parameter
        }

        /// Whether a gesture holds the knob.
        public var isHeld: Bool {
            gesture != nil
        }

        /// The value at the current norm.
        public var value: Double {
            track.normValueTransform.normToValue(track.norm)
        }

        /// `value` limited to the knob's range.
        public func clamp(_ value: Double) -> Double {
            let transform = track.normValueTransform
            let lower = min(transform.minimumValue, transform.maximumValue)
            let upper = max(transform.minimumValue, transform.maximumValue)
            return value.isNaN ? lower : value.clamped(to: lower...upper)
        }
    }
}
