import Dispatch
import Locking
import Parameters
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// `--state FILE`: the tree's values, kept in a file so that they survive a restart.
///
/// After ``start()``, every change of the tree schedules a write; changes that come while one
/// is scheduled ride along, so the file is written at most once per ``minimumInterval`` however
/// fast the values move. ``stop()`` writes once more. Each write goes to a temporary file that is
/// flushed and renamed over the file, so a crash (even `kill -9` in a burst) leaves either the
/// previous state or the new one, never half a file. The file has the preset format.
///
/// Writes run on the state file's own queue, never on the caller's thread: the server's event
/// loop only flips an atomic flag per change.
public final class StateFile: Sendable {
    /// The file.
    public let url: URL
    /// The shortest time between two writes (default 0.25 s: at most four writes a second).
    public let minimumInterval: Double
    /// The tree whose values are kept.
    public let tree: ParameterTree

    private let queue = DispatchQueue(label: "KnobLink.StateFile")
    private let pending = Atomic<Bool>(false)
    private let writes = Atomic<Int>(0)
    private let state = Locked<State>(State())
    private let onError: @Sendable (StateFileError) -> Void

    private struct State {
        var observer: ParameterObserverToken?
        var lastWrite: DispatchTime?
        var lastError: StateFileError?
        /// Set when an unreadable file could not be renamed: writing would destroy its values.
        var writesHeld = false
        var removedTemporaries: [String] = []
    }

    /// A state file for `tree` at `path`; nothing is read or written until asked.
    /// - Parameters:
    ///   - path: the file.
    ///   - tree: the tree whose values are kept.
    ///   - minimumInterval: the shortest time between two coalesced writes, in seconds.
    ///   - onError: called on the state file's queue when a background write fails.
    public init(
        path: String, tree: ParameterTree, minimumInterval: Double = 0.25,
        onError: @escaping @Sendable (StateFileError) -> Void = { _ in }
    ) {
        url = URL(fileURLWithPath: path)
        self.tree = tree
        self.minimumInterval = max(minimumInterval, 0)
        self.onError = onError
    }

    deinit {
        if let token = state.withLock({ $0.observer }) { tree.removeParameterObserver(token) }
    }

    /// The number of writes done so far.
    public var writeCount: Int { writes.load(ordering: .relaxed) }

    /// The error of the last write, or `nil` if it succeeded.
    public var lastError: StateFileError? { state.withLock { $0.lastError } }

    /// Reads the file and applies what fits the tree.
    ///
    /// Temporary files that an earlier process left behind when it was killed mid-write
    /// (`.NAME.UUID.tmp` next to the file) are removed first (see ``removedTemporaries``). A file
    /// that is not a state file is renamed to `NAME.corrupt-TIME` before anything can overwrite
    /// it, so that its values can still be recovered by hand; if it cannot be renamed, the state
    /// file writes nothing until ``stop()``, which then refuses too.
    /// - Parameter originator: passed to `setValue`, so that its observer does not hear the values.
    /// - Returns: `nil` if there is no file yet; otherwise what was applied and what was not.
    /// - Throws: ``StateFileError/keptAside(path:_:keptAs:)`` if the file is not a state file and
    ///   was renamed, ``StateFileError/unreadable(path:_:)`` if it could not be; the tree is then
    ///   unchanged.
    @discardableResult
    public func load(originator: ParameterObserverToken? = nil) throws(StateFileError) -> PresetRestoreReport? {
        removeStaleTemporaries()
        let preset: ParameterPreset
        do {
            guard let bytes = try PresetStore.readBounded(url) else { return nil }
            preset = try ParameterPreset(jsonData: bytes)
        } catch {
            if let kept = keepAside() { throw .keptAside(path: url.path, error, keptAs: kept) }
            state.withLock { $0.writesHeld = true }
            throw .unreadable(path: url.path, error)
        }
        return tree.restore(preset, originator: originator)
    }

    /// The temporary files ``load(originator:)`` removed, as paths.
    public var removedTemporaries: [String] { state.withLock { $0.removedTemporaries } }

    /// Removes `.NAME.UUID.tmp` files in the file's directory: the temporaries of a write that
    /// never reached its rename (the process was killed). One process owns a state file, and its
    /// own writes have not started yet, so every such file is stale.
    private func removeStaleTemporaries() {
        let directory = url.deletingLastPathComponent()
        let prefix = "." + url.lastPathComponent + "."
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        var removed: [String] = []
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            let middle = name.dropFirst(prefix.count).dropLast(4)
            guard UUID(uuidString: String(middle)) != nil else { continue }
            let path = directory.appendingPathComponent(name).path
            if unlink(path) == 0 { removed.append(path) }
        }
        state.withLock { $0.removedTemporaries = removed.sorted() }
    }

    /// Renames the unreadable file to `NAME.corrupt-YYYYMMDDTHHMMSSZ` (with `-2`, `-3`, … if that
    /// exists), never replacing another file.
    /// - Returns: the new path, or `nil` if the file could not be renamed.
    private func keepAside() -> String? {
        let base = url.path + ".corrupt-" + Self.compactTimestamp(time(nil))
        for attempt in 1...100 {
            let candidate = attempt == 1 ? base : base + "-\(attempt)"
            // link(2) fails rather than replace an existing file; unlink then drops the old name.
            if link(url.path, candidate) == 0 {
                unlink(url.path)
                return candidate
            }
            if errno == EEXIST { continue }
            // A symbolic link to a special file, or a file system without hard links: rename(2)
            // after checking that nothing has the name.
            guard access(candidate, F_OK) != 0 else { continue }
            return rename(url.path, candidate) == 0 ? candidate : nil
        }
        return nil
    }

    /// `YYYYMMDDTHHMMSSZ` in UTC, for the name of a file kept aside.
    static func compactTimestamp(_ seconds: time_t) -> String {
        var seconds = seconds
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)" + two(parts.tm_mon + 1) + two(parts.tm_mday) + "T" + two(parts.tm_hour)
            + two(parts.tm_min) + two(parts.tm_sec) + "Z"
    }

    /// Starts following the tree's changes. Calling it twice does nothing more.
    public func start() {
        state.withLock { state in
            guard state.observer == nil else { return }
            state.observer = tree.token { [weak self] change in
                if change.eventType == .value { self?.noteChange() }
            }
        }
    }

    /// Stops following the tree and writes the current values (waiting for the write).
    /// - Throws: ``StateFileError/writeFailed(path:reason:)``.
    public func stop() throws(StateFileError) {
        if let token = state.withLock({ state -> ParameterObserverToken? in
            defer { state.observer = nil }
            return state.observer
        }) {
            tree.removeParameterObserver(token)
        }
        try flush()
    }

    /// Schedules a write if none is scheduled; cheap enough to call on every change.
    public func noteChange() {
        guard !pending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let now = DispatchTime.now()
        let earliest = state.withLock { $0.lastWrite }.map { $0 + minimumInterval } ?? now
        queue.asyncAfter(deadline: max(earliest, now)) { [weak self] in
            guard let self, pending.load(ordering: .acquiring) else { return }
            do throws(StateFileError) {
                try write()
            } catch {
                onError(error)
            }
        }
    }

    /// Writes the current values now, on the state file's queue, and waits for it.
    /// - Throws: ``StateFileError/writeFailed(path:reason:)``.
    public func flush() throws(StateFileError) {
        let result: Result<Void, StateFileError> = queue.sync {
            do throws(StateFileError) {
                try write()
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// Runs on `queue`. The time is noted and the flag cleared before the snapshot, so that a
    /// change made during the write schedules the next one, a full interval later, instead of
    /// being lost.
    private func write() throws(StateFileError) {
        guard !state.withLock({ $0.writesHeld }) else {
            pending.store(false, ordering: .releasing)
            throw .writeFailed(path: url.path, reason: "the unreadable file there is kept as it is")
        }
        state.withLock { $0.lastWrite = DispatchTime.now() }
        pending.store(false, ordering: .releasing)
        let preset = tree.makePreset()
        do {
            try preset.write(to: url)
        } catch {
            let failure = StateFileError.writeFailed(path: url.path, reason: SystemFile.reason(error))
            state.withLock { $0.lastError = failure }
            throw failure
        }
        state.withLock { $0.lastError = nil }
        writes.add(1, ordering: .relaxed)
    }
}
