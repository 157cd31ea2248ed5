import Parameters
import UncheckedState

/// The values that one flush of feedback sends, read from the tree and normalised once per flush
/// and shared by every subscriber, and each parameter's padded addresses in one block of memory.
///
/// Without it, each subscriber read the value again (a lock in the tree, and a value provider if
/// one is set), normalised it again (a logarithm for a logarithmic taper) and retained the
/// `Parameter` and the address array, once per value per subscriber. Owned by the event loop; the
/// state is in an `UncheckedBox` and `UncheckedBuffer`s held by `let`s, so reading it costs no
/// reference counting and no exclusivity check.
final class FeedbackCache {
    /// The current flush; an entry is valid when its round equals it.
    private let round = UncheckedBox<UInt32>(1)
    private let rounds: UncheckedBuffer<UInt32>
    private let values: UncheckedBuffer<Float>
    private let normalized: UncheckedBuffer<Float>
    /// `P` and `P/raw`, padded, for each parameter: offsets into `arena` and lengths.
    private let arena: UncheckedBuffer<UInt8>
    private let valueAddresses: UncheckedBuffer<AddressSpan>
    private let rawAddresses: UncheckedBuffer<AddressSpan>

    private struct AddressSpan {
        var offset: Int32
        var length: Int32
    }

    init(addresses: [ParameterAddresses]) {
        let count = addresses.count
        rounds = UncheckedBuffer(count: count, repeating: 0)
        values = UncheckedBuffer(count: count, repeating: 0)
        normalized = UncheckedBuffer(count: count, repeating: 0)
        var bytes: [UInt8] = []
        var valueSpans: [AddressSpan] = []
        var rawSpans: [AddressSpan] = []
        bytes.reserveCapacity(addresses.reduce(0) { $0 + $1.valueBytes.count + $1.rawBytes.count })
        for address in addresses {
            valueSpans.append(AddressSpan(offset: Int32(bytes.count), length: Int32(address.valueBytes.count)))
            bytes += address.valueBytes
            rawSpans.append(AddressSpan(offset: Int32(bytes.count), length: Int32(address.rawBytes.count)))
            bytes += address.rawBytes
        }
        arena = UncheckedBuffer(bytes)
        valueAddresses = UncheckedBuffer(valueSpans)
        rawAddresses = UncheckedBuffer(rawSpans)
    }

    /// Starts a flush: values read before it are read again when next asked for.
    func beginRound() {
        round.value &+= 1
        if round.value == 0 {
            // After 4 billion flushes: no entry may look current by accident.
            rounds.update(repeating: 0)
            round.value = 1
        }
    }

    /// The parameter's value in this flush, read from the tree the first time it is asked for.
    @inline(__always)
    func value(_ index: Int, of parameters: [Parameter]) -> Float {
        if rounds[index] != round.value { load(index, parameters) }
        return values[index]
    }

    /// `value` normalised; from this flush's entry when it holds that value.
    @inline(__always)
    func normalized(_ index: Int, value: Float, of parameters: [Parameter]) -> Float {
        if rounds[index] == round.value && values[index] == value { return normalized[index] }
        return Float(parameters[index].normalize(value))
    }

    private func load(_ index: Int, _ parameters: [Parameter]) {
        let parameter = parameters[index]
        let value = parameter.value
        values[index] = value
        normalized[index] = Float(parameter.normalize(value))
        rounds[index] = round.value
    }

    /// Appends `P ,f normalised` to `builder`.
    @inline(__always)
    func appendNormalized(_ index: Int, _ normalized: Float, to builder: PacketBuilder) {
        append(valueAddresses[index], normalized, to: builder)
    }

    /// Appends `P/raw ,f value` to `builder`.
    @inline(__always)
    func appendRaw(_ index: Int, _ value: Float, to builder: PacketBuilder) {
        append(rawAddresses[index], value, to: builder)
    }

    @inline(__always)
    private func append(_ span: AddressSpan, _ value: Float, to builder: PacketBuilder) {
        arena.withUnsafeMutableBytes { arena in
            builder.appendFloat(
                address: UnsafeRawPointer(arena.baseAddress.unsafelyUnwrapped + Int(span.offset)),
                count: Int(span.length), value)
        }
    }
}
