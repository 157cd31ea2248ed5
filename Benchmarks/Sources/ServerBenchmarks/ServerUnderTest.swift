import CServerPeer

/// One running server, whichever it is: where it listens and how many sets it has applied.
final class ServerUnderTest {
    /// `KnobLink` or `liblo ref`.
    let name: String
    /// The UDP port on 127.0.0.1.
    let port: UInt16
    /// How many sets the server has applied (KnobLink: counted by an observer on its tree).
    let applied: () -> Int
    private let stopServer: () -> Void

    init(name: String, port: UInt16, applied: @escaping () -> Int, stop: @escaping () -> Void) {
        self.name = name
        self.port = port
        self.applied = applied
        self.stopServer = stop
    }

    func stop() {
        stopServer()
    }

    /// The C peers' view of `applied`: a function pointer and this object as its context.
    var appliedFunction: kb_sp_applied_fn {
        { context in
            Unmanaged<ServerUnderTest>.fromOpaque(context!).takeUnretainedValue().applied()
        }
    }

    var context: UnsafeMutableRawPointer {
        Unmanaged.passUnretained(self).toOpaque()
    }
}
