import Foundation
import Testing

@testable import KnobLink

/// `/wave/load`'s path rule: only regular files below the media directory, with `..` and
/// symbolic links out of it refused.
@Suite struct WaveMediaDirectoryTests {
    final class Layout {
        let root: String
        let media: String
        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("wave-media-\(UUID().uuidString)").path
            media = root + "/media"
            let files = FileManager.default
            try files.createDirectory(atPath: media + "/sub", withIntermediateDirectories: true)
            try files.createDirectory(atPath: root + "/media-other", withIntermediateDirectories: true)
            for path in [media + "/a.wav", media + "/sub/b.wav", root + "/secret.wav", root + "/media-other/c.wav"] {
                try Data([1]).write(to: URL(fileURLWithPath: path))
            }
            try files.createSymbolicLink(atPath: media + "/out.wav", withDestinationPath: root + "/secret.wav")
            try files.createSymbolicLink(atPath: media + "/outdir", withDestinationPath: root)
            try files.createSymbolicLink(atPath: media + "/in.wav", withDestinationPath: media + "/sub/b.wav")
        }
        deinit { try? FileManager.default.removeItem(atPath: root) }
        var directory: WaveMediaDirectory { WaveMediaDirectory(path: media) }
    }

    @Test func filesBelowTheDirectoryResolve() throws {
        let layout = try Layout()
        let real = try #require(WaveMediaDirectory.realPath(layout.media))
        #expect(layout.directory.resolve("a.wav") == .success(real + "/a.wav"))
        #expect(layout.directory.resolve("sub/b.wav") == .success(real + "/sub/b.wav"))
        #expect(layout.directory.resolve("./sub//b.wav") == .success(real + "/sub/b.wav"))
        #expect(layout.directory.resolve(layout.media + "/a.wav") == .success(real + "/a.wav"))
        // A link that stays inside is fine.
        #expect(layout.directory.resolve("in.wav") == .success(real + "/sub/b.wav"))
    }

    @Test(arguments: ["../secret.wav", "sub/../a.wav", "sub/../../secret.wav", ".."])
    func parentComponentsAreRefused(path: String) throws {
        let layout = try Layout()
        #expect(layout.directory.resolve(path) == .failure(.parentComponent(path)))
    }

    @Test func absolutePathsOutsideAreRefused() throws {
        let layout = try Layout()
        for path in [layout.root + "/secret.wav", layout.root + "/media-other/c.wav", "/etc/passwd", "/nope/x.wav"] {
            #expect(layout.directory.resolve(path) == .failure(.outside(path)))
        }
    }

    @Test func symbolicLinksOutAreRefused() throws {
        let layout = try Layout()
        #expect(layout.directory.resolve("out.wav") == .failure(.outside("out.wav")))
        #expect(layout.directory.resolve("outdir/secret.wav") == .failure(.outside("outdir/secret.wav")))
    }

    @Test func missingFilesDirectoriesAndEmptyPaths() throws {
        let layout = try Layout()
        #expect(layout.directory.resolve("missing.wav") == .failure(.notFound("missing.wav")))
        #expect(layout.directory.resolve("sub") == .failure(.notAFile("sub")))
        #expect(layout.directory.resolve("") == .failure(.invalid("")))
        #expect(
            WaveMediaDirectory(path: layout.root + "/none").resolve("a.wav")
                == .failure(.mediaDirectoryUnavailable(layout.root + "/none")))
    }

    @Test func prefixesAreComparedByComponent() {
        #expect(WaveMediaDirectory.isBelow("/m/a", "/m"))
        #expect(!WaveMediaDirectory.isBelow("/media-other/a", "/media"))
        #expect(!WaveMediaDirectory.isBelow("/m", "/m"))
    }
}
