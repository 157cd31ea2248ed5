/// A 4-byte MIDI message, the OSC `m` type: port id, status byte, then two data bytes, in that order.
public struct OSCMIDI: Sendable, Hashable {
    /// The port id.
    public var port: UInt8
    /// The status byte (for example `0x90`, note on, channel 1).
    public var status: UInt8
    /// The first data byte.
    public var data1: UInt8
    /// The second data byte.
    public var data2: UInt8

    /// Creates a MIDI message from its four bytes.
    public init(port: UInt8, status: UInt8, data1: UInt8, data2: UInt8) {
        self.port = port
        self.status = status
        self.data1 = data1
        self.data2 = data2
    }

    /// The message as the big-endian 32-bit word that the wire carries (`0xPPSSD1D2`).
    public var rawValue: UInt32 {
        UInt32(port) << 24 | UInt32(status) << 16 | UInt32(data1) << 8 | UInt32(data2)
    }

    /// Creates a MIDI message from the wire's 32-bit word (`0xPPSSD1D2`).
    public init(rawValue: UInt32) {
        self.init(
            port: UInt8(truncatingIfNeeded: rawValue >> 24),
            status: UInt8(truncatingIfNeeded: rawValue >> 16),
            data1: UInt8(truncatingIfNeeded: rawValue >> 8),
            data2: UInt8(truncatingIfNeeded: rawValue))
    }
}
