import Controls
import Dispatch
import Foundation
import KnobLink
import TerminalUI

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
            status: {
                let peers = server.statistics().first { $0.name == "peers" }?.value
                return SurfaceStatus(name: name, peerCount: peers)
            },
            onQuit: {
                DispatchQueue.main.async {
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
}
