import Foundation
import Testing

/// The page against a real `knoblink serve`: `browser/server_tests.py` drives headless Chromium
/// with real pointer events and checks the server's side with UDP peers (SURFACES.md §2–4).
///
/// Each test starts its own server on a port from port 0 and runs one test of the script.
@Suite(.serialized)
struct PageServerTests {
    static let names = [
        "page_shows_the_tree", "drag_sets_the_server", "udp_set_shows_on_the_page", "held_knob_keeps_its_value",
        "toggles", "keyboard", "wheel", "editor", "double_click_resets", "scrubbing_reaches_a_visualiser", "two_tabs",
        "dark_theme", "high_dpi", "reconnects_after_a_restart",
    ]

    @Test(arguments: names)
    func pageAgainstTheServer(_ name: String) async throws {
        let server = try await ServeChild()
        let run = try await BrowserScript.run(
            "server_tests.py",
            [
                server.url, "--only", name, "--knoblink", ServeChild.knoblink.path, "--server-pid", "\(server.pid)",
                "--name", server.name, "--extra", ServeChild.options.joined(separator: " "),
            ], timeout: .seconds(90))
        #expect(run.status == 0 && run.stdout.contains("ok \(name)"), "\(BrowserScript.describe(run))")
    }
}
