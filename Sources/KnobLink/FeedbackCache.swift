import Parameters

/// The values that one flush of feedback sends, read from the tree and normalised once per flush
/// and shared by every subscriber, and each parameter's padded addresses in one block of memory.
///
/// Without it, each subscriber read the value again (a lock in the tree, and a value provider if
/// one is set), normalised it again (a logarithm for a logarithmic taper) and retained the
/// `Parameter` and the address array, once per value per subscriber. Owned by the event loop; the
/// state sits behind pointers, so reading it costs no reference counting and no exclusivity check.
final class FeedbackCache {
    private let count: Int
    /// The current flush; an entry is valid when its round equals it.
    private let round: UnsafeMutablePointer<UInt32>
    private let rounds: UnsafeMutableBufferPointer<UInt32>
    private let values: UnsafeMutableBufferPointer<Float>
    private let normalized: UnsafeMutableBufferPointer<Float>
    /// `P` and `P/raw`, padded, for each parameter: offsets into `arena` and lengths.
    private let arena: UnsafeMutableRawPointer
    private let valueAddresses: UnsafeMutableBufferPointer<AddressSpan>
    private let rawAddresses: UnsafeMutableBufferPointer<AddressSpan>

    private struct AddressSpan {
        var offset: Int32
        var length: Int32
    }

    init(addresses: [ParameterAddresses]) {
        count = addresses.count
        round = .allocate(capacity: 1)
        round.initialize(to: 1)
        rounds = .allocate(capacity: max(count, 1))
        rounds.initialize(repeating: 0)
        values = .allocate(capacity: max(count, 1))
        values.initialize(repeating: 0)
        normalized = .allocate(capacity: max(count, 1))
        normalized.initialize(repeating: 0)
        valueAddresses = .allocate(capacity: max(count, 1))
        rawAddresses = .allocate(capacity: max(count, 1))
        let total = addresses.reduce(0) { $0 + $1.valueBytes.count + $1.rawBytes.count }
        arena = .allocate(byteCount: max(total, 1), alignment: 16)
        var offset = 0
        for (index, address) in addresses.enumerated() {
            for (bytes, spans) in [(address.valueBytes, valueAddresses), (address.rawBytes, rawAddresses)] {
                bytes.withUnsafeBytes { (arena + offset).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
                spans.initializeElement(at: index, to: AddressSpan(offset: Int32(offset), length: Int32(bytes.count)))
                offset += bytes.count
            }
        }
    }

    deinit {
        round.deallocate()
        rounds.deallocate()
        values.deallocate()
        normalized.deallocate()
        valueAddresses.deallocate()
        rawAddresses.deallocate()
        arena.deallocate()
    }

    /// Starts a flush: values read before it are read again when next asked for.
    func beginRound() {
        round.pointee &+= 1
        if round.pointee == 0 {
            // After 4 billion flushes: no entry may look current by accident.
            rounds.update(repeating: 0)
            round.pointee = 1
        }
    }

    /// The parameter's value in this flush, read from the tree the first time it is asked for.
    @inline(__always)
    func value(_ index: Int, of parameters: [Parameter]) -> Float {
        if rounds[index] != round.pointee { load(index, parameters) }
        return values[index]
    }

    /// `value` normalised; from this flush's entry when it holds that value.
    @inline(__always)
    func normalized(_ index: Int, value: Float, of parameters: [Parameter]) -> Float {
        if rounds[index] == round.pointee && values[index] == value { return normalized[index] }
        return Float(parameters[index].normalize(value))
    }

    private func load(_ index: Int, _ parameters: [Parameter]) {
        let parameter = parameters[index]
        let value = parameter.value
        values[index] = value
        normalized[index] = Float(parameter.normalize(value))
        rounds[index] = round.pointee
    }

    /// Appends `P ,f normalised` to `builder`.
    @inline(__always)
    func appendNormalized(_ index: Int, _ normalized: Float, to builder: PacketBuilder) {
        let span = valueAddresses[index]
        builder.appendFloat(address: UnsafeRawPointer(arena + Int(span.offset)), count: Int(span.length), normalized)
    }

    /// Appends `P/raw ,f value` to `builder`.
    @inline(__always)
    func appendRaw(_ index: Int, _ value: Float, to builder: PacketBuilder) {
        let span = rawAddresses[index]
        builder.appendFloat(address: UnsafeRawPointer(arena + Int(span.offset)), count: Int(span.length), value)
    }
}
