import CBenchPeer

/// Where the two ends of a round trip run, on this 2-CPU machine.
///
/// Round trips take about twice as long when the two threads sit on different CPUs (each wake-up
/// crosses CPUs) as when they share one, so every peer is measured in both placements.
enum Placement: CaseIterable {
    /// Every thread of the process on CPU 0.
    case oneCPU
    /// The client on CPU 0 and the echoing side on CPU 1.
    case twoCPUs

    var label: String {
        switch self {
        case .oneCPU: "one CPU"
        case .twoCPUs: "two CPUs"
        }
    }

    /// Restricts the whole process (every existing thread, and the threads they start) to CPU 0,
    /// or lets it use both CPUs again.
    func applyToProcess() {
        _ = kb_pin_process(self == .oneCPU ? 0b01 : 0b11)
    }

    /// 1 when the C peers must pin their two threads apart.
    var apart: Int32 { self == .twoCPUs ? 1 : 0 }
}
