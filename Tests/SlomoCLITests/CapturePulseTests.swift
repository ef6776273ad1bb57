import Foundation
import SlomoTestSupport
import Testing

/// A private PulseAudio server with a null sink, started and stopped by the test.
final class PulseServer {
    let server: Daemon
    let folder: URL
    var socket: String { folder.appendingPathComponent("native").path }

    /// Whether PulseAudio is installed: the sound tests are skipped (and say so) without it.
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/pulseaudio") }

    /// Starts the server; nil (with the reason printed) when PulseAudio cannot start here: a
    /// test then fails (`#require`), it does not pass without having run.
    static func start() -> PulseServer? {
        guard let folder = try? FixtureCache.shared.scratchFolder("pulse") else { return nil }
        let script = """
            load-module module-native-protocol-unix socket=\(folder.path)/native auth-anonymous=1
            load-module module-null-sink sink_name=slomo_null rate=48000 channels=2
            set-default-sink slomo_null
            """
        let config = folder.appendingPathComponent("default.pa")
        guard (try? script.write(to: config, atomically: true, encoding: .utf8)) != nil else { return nil }
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = folder.path
        environment["XDG_RUNTIME_DIR"] = folder.path
        guard let server = Daemon.start("/usr/bin/pulseaudio",
                                        ["-n", "-F", config.path, "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no"],
                                        environment: environment, readyWhen: folder.appendingPathComponent("native").path) else {
            print("pulseaudio did not start or open its socket")
            return nil
        }
        return PulseServer(server: server, folder: folder)
    }

    private init(server: Daemon, folder: URL) {
        self.server = server
        self.folder = folder
    }

    func stop() { server.stop() }
}

// Nested in CaptureCommandTests, which is serialized: capture tests measure timing and must
// not compete with each other for the two cores.
extension CaptureCommandTests {
    /// `slomo capture --input pulse:…` against a null sink's monitor.
    @Suite(.enabled(if: PulseServer.isInstalled, "needs PulseAudio (scripts/setup installs it)")) struct Pulse {
        // This hung once: PulseAudio closes the descriptors it inherits, which made
        // Foundation's Process block its one reaping thread on the running server, so the
        // player and slomo were never reaped. Daemon now starts servers with posix_spawn.
        @Test(.timeLimit(.minutes(1)))
        func meterReadsAHalfAmplitudeSine() throws {
            let server = try #require(PulseServer.start(), "PulseAudio is installed but did not start")
            defer { server.stop() }
            var environment = ProcessInfo.processInfo.environment
            environment["PULSE_SERVER"] = "unix:" + server.socket
            // A 0.5-amplitude 440 Hz sine on both channels, played into the null sink.
            let player = Process()
            player.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
            player.arguments = ["-nostdin", "-v", "error", "-re", "-f", "lavfi", "-i",
                                "sine=frequency=440:sample_rate=48000,volume=4:precision=float,pan=stereo|c0=c0|c1=c0",
                                "-t", "10", "-f", "pulse", "-device", "slomo_null", "slomo-test"]
            player.environment = environment
            player.standardInput = FileHandle.nullDevice
            player.standardOutput = FileHandle.nullDevice
            player.standardError = FileHandle.nullDevice
            try player.run()
            defer { if player.isRunning { kill(player.processIdentifier, SIGKILL); player.waitUntilExit() } }
            usleep(1_000_000)
            #expect(player.isRunning, "the player could not play into the null sink")
            let folder = try FixtureCache.shared.scratchFolder("capture-pulse")
            let path = folder.appendingPathComponent("sound.mov").path
            let recorder = Process()
            recorder.executableURL = URL(fileURLWithPath: try Slomo.executable)
            recorder.arguments = ["capture", "--input", "pulse:slomo_null.monitor", "--duration", "2", "-o", path,
                                  "--progress", "json"]
            recorder.environment = environment
            let log = folder.appendingPathComponent("stderr.txt")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            recorder.standardError = try FileHandle(forWritingTo: log)
            recorder.standardOutput = FileHandle.nullDevice
            recorder.standardInput = FileHandle.nullDevice
            try recorder.run()
            recorder.waitUntilExit()
            let stderr = try String(contentsOf: log, encoding: .utf8)
            #expect(recorder.terminationStatus == 0, "\(stderr)")
            let statusLines = stderr.split(separator: "\n").filter { $0.contains("\"event\":\"status\"") }
            let last = try #require(statusLines.last)
            let object = try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any] ?? [:]
            let levels = object["audioLevels"] as? [[String: Double]] ?? []
            print("pulse meters: \(levels)")
            #expect(levels.count == 2)
            for level in levels {
                #expect(abs((level["peak"] ?? 0) - -6.02) <= 0.1)
                #expect(abs((level["average"] ?? 0) - -9.03) <= 0.1)
            }
            #expect(try FFprobe(path).stream("audio")?["codec_name"] as? String == "pcm_s16le")
        }
    }
}
