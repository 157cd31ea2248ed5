extension Parameter {
    /// The current value.
    ///
    /// Reading calls the nearest implementor value provider if one is set and stores its result
    /// (clamped), without telling observers. Setting is `setValue(newValue)` with no originator.
    public var value: ParameterValue {
        get {
            let (stored, provider) = storage.valueAndProvider(at: index)
            guard let provider, let provided = constrained(provider(self)) else { return stored }
            storage.store(provided, at: index)
            return provided
        }
        set { setValue(newValue) }
    }

    /// Sets the value and tells every observer of the parameter, its groups and the tree except
    /// the originator's.
    ///
    /// The value is clamped to `minValue…maxValue` (±infinity to the ends) and rounded to a whole
    /// step for boolean and indexed units; NaN is refused. Observers hear a `.value` event only
    /// when the value changed, and `.touch`/`.release` events always. The implementor value
    /// observer hears every change, the originator's too. Observers are called on the calling
    /// thread after the tree's lock is released; two threads setting at once may deliver in
    /// either order, so an observer that needs the latest value reads ``value``.
    /// Writability (``isWritable``) is for the server and the controls to enforce: the owner of
    /// the tree may always set values.
    /// - Parameters:
    ///   - value: the new value in the parameter's units.
    ///   - originator: the token of the observer that makes the change; it is not told.
    ///   - eventType: the automation event type.
    /// - Returns: what happened, with the applied value.
    /// - Complexity: O(observers of this parameter + observers of groups and the tree); no allocation.
    @discardableResult
    public func setValue(
        _ value: ParameterValue, originator: ParameterObserverToken? = nil, eventType: AutomationEventType = .value
    ) -> ParameterSetResult {
        guard let applied = constrained(value) else { return .refused }
        return storage.apply(applied, to: self, originator: originator, eventType: eventType)
    }

    /// The value that `setValue` would apply: clamped and quantised, or `nil` for NaN.
    @inlinable
    public func constrained(_ value: ParameterValue) -> ParameterValue? {
        if value.isNaN { return nil }
        var result = value
        if unit.isStepped { result = result.rounded(.toNearestOrAwayFromZero) }
        if result < minValue { result = minValue }
        if result > maxValue { result = maxValue }
        return result
    }

    /// The current value as a normalised position 0…1 with the parameter's taper.
    public var normalizedValue: Double {
        transform.valueToNorm(Double(value))
    }

    /// Maps a value to its normalised position (clamped to the range first; 0 when min == max).
    public func normalize(_ value: ParameterValue) -> Double {
        transform.valueToNorm(Double(value))
    }

    /// Maps a normalised position (clamped to 0…1) to a value in the parameter's units, before
    /// quantising.
    public func denormalize(_ norm: Double) -> ParameterValue {
        ParameterValue(transform.normToValue(min(max(norm, 0), 1)))
    }

    /// Sets the value from a normalised position; NaN is refused, anything else clamps to 0…1.
    @discardableResult
    public func setNormalizedValue(
        _ norm: Double, originator: ParameterObserverToken? = nil, eventType: AutomationEventType = .value
    ) -> ParameterSetResult {
        guard !norm.isNaN else { return .refused }
        return setValue(denormalize(norm), originator: originator, eventType: eventType)
    }

    /// Returns the value to ``defaultValue``.
    @discardableResult
    public func reset(originator: ParameterObserverToken? = nil) -> ParameterSetResult {
        setValue(defaultValue, originator: originator)
    }

    // MARK: Observers

    /// Adds an observer of this parameter's changes.
    /// - Returns: the token to pass as originator and to remove the observer.
    public func token(
        byAddingParameterObserver observer: @escaping @Sendable (ParameterChange) -> Void
    ) -> ParameterObserverToken {
        storage.addObserver(range: index..<index + 1, single: true, callback: observer)
    }

    /// Adds an observer of this parameter's changes under a token the caller made beforehand
    /// (with ``ParameterObserverToken/unique()``), for a caller that must hold the token before
    /// the observer exists: a reducer keeps the token in its state and returns the observer's
    /// registration as an effect. An observer already added under `token` is replaced.
    public func addParameterObserver(
        _ token: ParameterObserverToken, _ observer: @escaping @Sendable (ParameterChange) -> Void
    ) {
        _ = storage.addObserver(range: index..<index + 1, single: true, token: token, callback: observer)
    }

    /// Removes an observer added to any node of this parameter's tree.
    ///
    /// After it returns no new delivery to the observer starts; one already running on another
    /// thread may finish. Removing an unknown token does nothing.
    public func removeParameterObserver(_ token: ParameterObserverToken) {
        storage.removeObserver(token)
    }

    // MARK: Hooks

    /// Receives every change of this parameter (overrides the hooks of its groups and tree).
    public var implementorValueObserver: ImplementorValueObserver? {
        get { storage.hooks(for: .parameter(index)).valueObserver }
        set { storage.updateHooks(for: .parameter(index)) { $0.valueObserver = newValue } }
    }

    /// Supplies this parameter's value when it is read.
    public var implementorValueProvider: ImplementorValueProvider? {
        get { storage.hooks(for: .parameter(index)).valueProvider }
        set { storage.updateHooks(for: .parameter(index)) { $0.valueProvider = newValue } }
    }

    /// Formats this parameter's values.
    public var implementorStringFromValueCallback: ImplementorStringFromValue? {
        get { storage.hooks(for: .parameter(index)).stringFromValue }
        set { storage.updateHooks(for: .parameter(index)) { $0.stringFromValue = newValue } }
    }

    /// Parses text to a value of this parameter.
    public var implementorValueFromStringCallback: ImplementorValueFromString? {
        get { storage.hooks(for: .parameter(index)).valueFromString }
        set { storage.updateHooks(for: .parameter(index)) { $0.valueFromString = newValue } }
    }

    /// Gives this parameter's name by length.
    public var implementorDisplayNameWithLengthCallback: ImplementorDisplayNameWithLength? {
        get { storage.hooks(for: .parameter(index)).displayNameWithLength }
        set { storage.updateHooks(for: .parameter(index)) { $0.displayNameWithLength = newValue } }
    }
}
