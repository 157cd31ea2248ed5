import Controls
import Dispatch
import KnobLink
import TerminalUI

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

extension ServeCommand {
    /// Draws the server's own tree in this terminal (`--surface`); quitting the surface stops the
    /// server like SIGTERM does.
    func startSurface(server: KnobLinkServer, theme: Theme, logger: ServeLogger) throws(CommandFailure)
        -> TerminalSurface
    {
        let colorMode = ColorMode(environment: ProcessInfo.processInfo.environment)
        let name = server.name
        let surface = TerminalSurface(
            tree: server.tree, options: TerminalSurface.Options(theme: theme, colorMode: colorMode),
            waveform: Self.waveform(of: server),
            status: {
                let peers = server.statistics().first { $0.name == "peers" }?.value
                return SurfaceStatus(name: name, peerCount: peers)
            },
            onQuit: {
                CommandQueue.queue.async {
                    server.stop()
                    exit(0)
                }
            })
        do {
            try surface.start()
        } catch {
            throw CommandFailure("--surface: \(error)")
        }
        // `/sys/tree/reload` (SIGHUP stops a server with a surface): the knobs of the new tree.
        server.onTreeReload = { [surface] tree in surface.replaceTree(tree) }
        // The peer count is not in the store: redraw when peers come and go.
        server.log = { [surface] event in
            logger.log(event)
            if event.message.contains("peer") { surface.setNeedsDisplay() }
        }
        return surface
    }

    /// The waveform row bound to the server's own wave stream (the `--audio` file or the demo
    /// signal): the row's play, pause and seeks act as a peer's `/wave/play` and `/wave/progress`
    /// would, and the server's changes of course move the row's playhead.
    static func waveform(of server: KnobLinkServer) -> SurfaceWaveform? {
        guard server.waveState != nil else { return nil }
        return SurfaceWaveform(
            bars: { server.waveBars(count: $0) },
            transport: {
                let state = server.waveState
                return SurfaceWaveform.Transport(
                    progress: state?.progress ?? 0, isPlaying: state?.isPlaying ?? false,
                    duration: state?.duration ?? 0, source: state?.source ?? 0)
            },
            setPlaying: { server.setWavePlaying($0) },
            seek: { server.seekWave(to: $0) },
            observe: { changed in server.onWaveChange = { _ in changed() } })
    }
}
