import CLibLO
import OSCCore

/// liblo 0.31 driven through its C API, the reference peer of the differential tests.
enum LibLO {
    /// Builds a liblo message with the same arguments; `nil` for a type liblo lacks (arrays, `r`).
    ///
    /// liblo keeps pointers to the blobs it is given until the message is serialised, so they are
    /// added to `blobs` for the caller to free afterwards.
    static func makeMessage(_ arguments: [OSCArgument], blobs: inout [lo_blob]) -> lo_message? {
        let message = lo_message_new()!
        for argument in arguments {
            let status: Int32
            switch argument {
            case .int32(let value): status = lo_message_add_int32(message, value)
            case .float32(let value): status = lo_message_add_float(message, value)
            case .string(let value): status = lo_message_add_string(message, value)
            case .symbol(let value): status = lo_message_add_symbol(message, value)
            case .blob(let bytes):
                let blob = bytes.withUnsafeBytes { lo_blob_new(Int32($0.count), $0.baseAddress) }
                status = lo_message_add_blob(message, blob)
                blobs.append(blob!)
            case .true: status = lo_message_add_true(message)
            case .false: status = lo_message_add_false(message)
            case .nil: status = lo_message_add_nil(message)
            case .impulse: status = lo_message_add_infinitum(message)
            case .timeTag(let tag):
                status = lo_message_add_timetag(message, lo_timetag(sec: tag.seconds, frac: tag.fraction))
            case .int64(let value): status = lo_message_add_int64(message, value)
            case .double(let value): status = lo_message_add_double(message, value)
            case .character(let value): status = lo_message_add_char(message, CChar(bitPattern: value))
            case .midi(let midi):
                var bytes: [UInt8] = [midi.port, midi.status, midi.data1, midi.data2]
                status = bytes.withUnsafeMutableBufferPointer { lo_message_add_midi(message, $0.baseAddress) }
            case .rgba, .array:
                lo_message_free(message)
                return nil
            }
            precondition(status == 0, "liblo refused \(argument)")
        }
        return message
    }

    /// liblo's serialisation of a message.
    static func serialise(_ message: OSCMessage) -> [UInt8]? {
        var blobs: [lo_blob] = []
        defer { blobs.forEach { lo_blob_free($0) } }
        guard let loMessage = makeMessage(message.arguments, blobs: &blobs) else {
            return nil
        }
        defer { lo_message_free(loMessage) }
        return serialise(loMessage, path: message.address)
    }

    static func serialise(_ message: lo_message, path: String) -> [UInt8] {
        var size = lo_message_length(message, path)
        var bytes = [UInt8](repeating: 0xEE, count: size)
        bytes.withUnsafeMutableBytes { _ = lo_message_serialise(message, path, $0.baseAddress, &size) }
        precondition(size == bytes.count)
        return bytes
    }

    /// Builds a liblo bundle from ours; `nil` if any message has a type liblo lacks.
    static func makeBundle(_ bundle: OSCBundle, blobs: inout [lo_blob]) -> lo_bundle? {
        let loBundle = lo_bundle_new(lo_timetag(sec: bundle.timeTag.seconds, frac: bundle.timeTag.fraction))!
        for element in bundle.elements {
            switch element {
            case .message(let message):
                guard let loMessage = makeMessage(message.arguments, blobs: &blobs) else {
                    lo_bundle_free_recursive(loBundle)
                    return nil
                }
                lo_bundle_add_message(loBundle, message.address, loMessage)
            case .bundle(let inner):
                guard let loInner = makeBundle(inner, blobs: &blobs) else {
                    lo_bundle_free_recursive(loBundle)
                    return nil
                }
                lo_bundle_add_bundle(loBundle, loInner)
            }
        }
        return loBundle
    }

    /// liblo's serialisation of a bundle.
    static func serialise(_ bundle: OSCBundle) -> [UInt8]? {
        var blobs: [lo_blob] = []
        defer { blobs.forEach { lo_blob_free($0) } }
        guard let loBundle = makeBundle(bundle, blobs: &blobs) else {
            return nil
        }
        defer { lo_bundle_free_recursive(loBundle) }
        var size = lo_bundle_length(loBundle)
        var bytes = [UInt8](repeating: 0xEE, count: size)
        bytes.withUnsafeMutableBytes { _ = lo_bundle_serialise(loBundle, $0.baseAddress, &size) }
        precondition(size == bytes.count)
        return bytes
    }

    /// What liblo's `lo_message_deserialise` reads from `bytes`: the arguments, or the error code.
    static func deserialise(_ bytes: [UInt8]) -> Result<[OSCArgument], LibLOError> {
        var copy = bytes
        var result: Int32 = 0
        let message = copy.withUnsafeMutableBytes { lo_message_deserialise($0.baseAddress, $0.count, &result) }
        guard let message else {
            return .failure(LibLOError(code: result))
        }
        defer { lo_message_free(message) }
        return .success(arguments(of: message))
    }

    static func arguments(of message: lo_message) -> [OSCArgument] {
        let count = Int(lo_message_get_argc(message))
        guard count > 0, let types = lo_message_get_types(message), let argv = lo_message_get_argv(message) else {
            return []
        }
        return (0..<count).map { index in
            // liblo gives no argument pointer for the types without data (T F N I).
            let type = UInt8(bitPattern: types[index])
            switch type {
            case OSCTypeTag.true: return .true
            case OSCTypeTag.false: return .false
            case OSCTypeTag.nil: return .nil
            case OSCTypeTag.impulse: return .impulse
            default: break
            }
            // Read exactly the argument's bytes: `pointee` of the lo_arg union would load all 16 of
            // them, past the end of liblo's buffer for the last argument.
            let arg = UnsafeRawPointer(argv[index]!)
            switch type {
            case OSCTypeTag.int32: return .int32(arg.loadUnaligned(as: Int32.self))
            case OSCTypeTag.float32: return .float32(arg.loadUnaligned(as: Float.self))
            case OSCTypeTag.string:
                return .string(arg.withMemoryRebound(to: CChar.self, capacity: 1) { String(cString: $0) })
            case OSCTypeTag.symbol:
                return .symbol(arg.withMemoryRebound(to: CChar.self, capacity: 1) { String(cString: $0) })
            case OSCTypeTag.blob:
                // A deserialised blob argument is its host-order int32 size followed by the bytes.
                let size = Int(arg.loadUnaligned(as: Int32.self))
                return .blob(Array(UnsafeRawBufferPointer(start: arg + 4, count: size)))
            case OSCTypeTag.timeTag:
                let seconds = arg.loadUnaligned(as: UInt32.self)
                let fraction = arg.loadUnaligned(fromByteOffset: 4, as: UInt32.self)
                return .timeTag(OSCTimeTag(seconds: seconds, fraction: fraction))
            case OSCTypeTag.int64: return .int64(arg.loadUnaligned(as: Int64.self))
            case OSCTypeTag.double: return .double(arg.loadUnaligned(as: Double.self))
            case OSCTypeTag.character: return .character(arg.load(as: UInt8.self))
            case OSCTypeTag.midi:
                let bytes = (0..<4).map { arg.load(fromByteOffset: $0, as: UInt8.self) }
                return .midi(OSCMIDI(port: bytes[0], status: bytes[1], data1: bytes[2], data2: bytes[3]))
            default: fatalError("liblo returned type \(types[index])")
            }
        }
    }
}

/// A liblo error code (`LO_E…`, from lo_errors.h).
struct LibLOError: Error, Equatable {
    var code: Int32
}

/// A liblo server on a Unix-domain socket that is never read from: packets are handed to
/// `lo_server_dispatch_data` directly, so this is liblo's own bundle parser without any network.
final class LibLOReceiver {
    struct Delivery: Equatable {
        var address: String
        var arguments: [OSCArgument]
        var timeTag: OSCTimeTag
    }

    private var server: lo_server
    private(set) var deliveries: [Delivery] = []

    init?(socketPath: String) {
        guard let server = lo_server_new_with_proto(socketPath, LO_UNIX, nil) else {
            return nil
        }
        self.server = server
        let handler: lo_method_handler = { path, _, _, _, message, userData in
            let receiver = Unmanaged<LibLOReceiver>.fromOpaque(userData!).takeUnretainedValue()
            let time = lo_message_get_timestamp(message)
            receiver.deliveries.append(
                Delivery(
                    address: String(cString: path!), arguments: LibLO.arguments(of: message!),
                    timeTag: OSCTimeTag(seconds: time.sec, fraction: time.frac)))
            return 0
        }
        lo_server_add_method(server, nil, nil, handler, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        lo_server_free(server)
    }

    /// Dispatches `bytes` and returns what liblo delivered, or its error code.
    func dispatch(_ bytes: [UInt8]) -> Result<[Delivery], LibLOError> {
        deliveries = []
        var copy = bytes
        let status = copy.withUnsafeMutableBytes { lo_server_dispatch_data(server, $0.baseAddress, $0.count) }
        return status < 0 ? .failure(LibLOError(code: status)) : .success(deliveries)
    }
}
