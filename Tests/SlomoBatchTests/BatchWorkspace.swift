import Foundation
import SlomoBatch
import SlomoTestSupport

/// A folder for one batch test: 8 generated clips (6 good, one that goes missing after the
/// plan, one truncated after it and run with --strict), the manifest that retimes them, and
/// the judges: each output's packets and decoded audio against the same command run by hand.
struct BatchWorkspace {
    let folder: URL
    /// The options every job runs with.
    static let options = ["--section", "0.2-0.6x0.5", "--audio", "spectral"]

    /// The manifest: the six good clips by a glob, then the two that will fail.
    static let manifest = """
        slomo-batch: 1
        defaults:
          command: retime
          options:
            section: [0.2-0.6x0.5]
            audio: spectral
        jobs:
          - inputs: clips/good-*.mov
            output: out/{stem}-slow.mov
          - input: clips/gone.mov
            output: out/gone-slow.mov
          - input: clips/cut.mov
            output: out/cut-slow.mov
            options: {strict: true}
        """

    init(_ label: String) throws {
        folder = try FixtureCache.shared.scratchFolder(label)
        let clips = folder.appendingPathComponent("clips")
        try FileManager.default.createDirectory(at: clips, withIntermediateDirectories: true)
        for number in 1...8 {
            let name = number <= 6 ? "good-\(number).mov" : number == 7 ? "gone.mov" : "cut.mov"
            try FileManager.default.copyItem(atPath: try Self.clip(number), toPath: clips.appendingPathComponent(name).path)
        }
        try Self.manifest.write(to: folder.appendingPathComponent("batch.yaml"), atomically: true, encoding: .utf8)
    }

    /// 2 s of 320x240 60 fps H.264 (its index first) with a tone of its own, AAC.
    static func clip(_ number: Int) throws -> String {
        try FixtureCache.shared.path(for: "batch-clip-\(number)", extension: "mov", arguments: [
            "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=60:duration=2,hue=h=\(number * 40)",
            "-f", "lavfi", "-i", "sine=frequency=\(200 + 100 * number):sample_rate=48000:duration=2",
            "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "30", "-c:a", "aac", "-shortest",
            "-movflags", "+faststart",
        ])
    }

    func path(_ relative: String) -> String { folder.appendingPathComponent(relative).path }

    /// The run folder of the test.
    var run: String { path("run") }

    /// Breaks the two inputs meant to fail, after the plan: one removed, one cut in half.
    func breakInputs() throws {
        try FileManager.default.removeItem(atPath: path("clips/gone.mov"))
        let cut = path("clips/cut.mov")
        let size = try FileManager.default.attributesOfItem(atPath: cut)[.size] as! Int
        guard truncate(cut, off_t(size / 2)) == 0 else { throw CommandFailure(description: "truncate \(cut) failed") }
    }

    /// Runs `slomo arguments…` in the workspace folder.
    func slomo(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
        try runCommand("/bin/sh", ["-c", "cd \"$0\" && exec \"$@\"", folder.path, try Slomo.executable] + arguments,
                       environment: environment)
    }

    /// The plan in the run folder.
    func plan() throws -> BatchPlan { try RunFolder(run).plan() }

    /// Every file below the workspace's `out` and `run` folders with its size and modification
    /// time (hidden files too): what "nothing changed" is judged by.
    func snapshot() throws -> [String: FileIdentity] {
        var files: [String: FileIdentity] = [:]
        for top in ["out", "run"] {
            let root = path(top)
            guard let walker = FileManager.default.enumerator(atPath: root) else { continue }
            for case let relative as String in walker {
                if let identity = FileIdentity(of: "\(root)/\(relative)") { files["\(top)/\(relative)"] = identity }
            }
        }
        return files
    }

    /// The same retime run by hand, for the six good clips: output path by clip stem.
    func handMadeOutputs() throws -> [String: String] {
        let reference = path("by-hand")
        try FileManager.default.createDirectory(atPath: reference, withIntermediateDirectories: true)
        var outputs: [String: String] = [:]
        for number in 1...6 {
            let output = "\(reference)/good-\(number).mov"
            try runChecked(try Slomo.executable, ["retime", path("clips/good-\(number).mov")] + Self.options + ["-o", output])
            outputs["good-\(number)"] = output
        }
        return outputs
    }

    /// A movie's video packets (with their timestamps) and its decoded audio samples, as
    /// ffmpeg's framemd5 lines.
    static func fingerprint(_ path: String) throws -> (video: String, audio: String) {
        let video = try runChecked("ffmpeg", ["-v", "error", "-i", path, "-map", "0:v", "-c", "copy", "-f", "framemd5", "-"])
        let audio = try runChecked("ffmpeg", ["-v", "error", "-i", path, "-map", "0:a", "-f", "framemd5", "-"])
        return (video.standardOutput, audio.standardOutput)
    }
}

/// Reads a workspace's run folder through the library, as a script would.
enum RunFolderReader {
    static func result(_ workspace: BatchWorkspace, index: Int) throws -> JobResult? {
        let folder = RunFolder(workspace.run)
        return folder.result(of: try folder.plan().jobs[index])
    }
}
