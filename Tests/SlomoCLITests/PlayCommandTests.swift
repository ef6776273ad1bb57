import Foundation
import SlomoTestSupport
import Testing

/// `slomo play`: what it says about bad input and missing devices, and what its window shows.
@Suite struct PlayCommandTests {
    /// SDL headless: no window system, sound into a file.
    static func headless(_ folder: URL) -> [String: String] {
        ["SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "disk",
         "SDL_DISKAUDIOFILE": folder.appendingPathComponent("heard.f32").path]
    }

    /// Seconds of sound the disk driver wrote into `folder` (`headless`): 32-bit float, stereo,
    /// 48 kHz.
    static func secondsHeard(in folder: URL) throws -> Double {
        Double(try Data(contentsOf: folder.appendingPathComponent("heard.f32")).count / 8) / 48000
    }

    /// Plays `arguments` (after `play`) headless without a picture, in a scratch folder named
    /// after `label`; returns how the command ended and the seconds of sound it played.
    static func playSound(_ arguments: [String], label: String) throws -> (result: CommandResult, heard: Double) {
        let folder = try FixtureCache.shared.scratchFolder(label)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try Slomo.run(["play"] + arguments + ["--no-video"], environment: headless(folder))
        return (result, try secondsHeard(in: folder))
    }

    /// An X display that does not exist: a window cannot open there.
    static let noDisplay = ["SDL_VIDEODRIVER": "x11", "DISPLAY": ":239", "SDL_AUDIODRIVER": "disk",
                            "SDL_DISKAUDIOFILE": "/dev/null"]

    @Test func withoutADisplayItSaysSoAndSuggestsNoVideo() throws {
        let result = try Slomo.run(["play", try Fixture.longFlashAndBeep.path], environment: Self.noDisplay)
        #expect(result.status == 1)
        #expect(result.standardError.contains("no display") && result.standardError.contains("--no-video"),
                "\(result.standardError)")
    }

    /// Input errors come first, the same as the other commands', before any window is tried.
    /// Issue 37, defect 3: with no display at all (and no driver asked for), SDL would fall back
    /// on its offscreen driver and play to nobody, exit 0; slomo says so and suggests --no-video.
    @Test func noDisplayAtAllIsNotPlayedOffscreen() throws {
        let result = try runCommand("env", ["-u", "DISPLAY", "-u", "WAYLAND_DISPLAY", "-u", "SDL_VIDEODRIVER", "SDL_AUDIODRIVER=disk",
                                            "SDL_DISKAUDIOFILE=/dev/null", try Slomo.executable, "play", try Fixture.longFlashAndBeep.path])
        #expect(result.status != 0)
        #expect(result.standardError.contains("no display") && result.standardError.contains("--no-video"), "\(result.standardError)")
    }

    @Test func badInputIsReportedBeforeAnyWindow() throws {
        let clip = try Fixture.longFlashAndBeep.path
        let missing = try Slomo.run(["play", "/nonexistent/clip.mov"], environment: Self.noDisplay)
        #expect(missing.status == 1 && missing.standardError.contains("/nonexistent/clip.mov"), "\(missing.standardError)")
        #expect(!missing.standardError.contains("display"))
        let section = try Slomo.run(["play", clip, "--section", "4-2x0.5"], environment: Self.noDisplay)
        let retime = try Slomo.run(["retime", clip, "--section", "4-2x0.5", "--dry-run"])
        #expect(section.status == 64 && section.standardError == retime.standardError, "\(section.standardError)")
        let algorithm = try Slomo.run(["play", clip, "--audio", "spectrl"], environment: Self.noDisplay)
        #expect(algorithm.status == 64 && algorithm.standardError.contains("spectral"), "\(algorithm.standardError)")
        let rate = try Slomo.run(["play", clip, "--rate", "0"], environment: Self.noDisplay)
        #expect(rate.status == 64, "\(rate.standardError)")
        for (arguments, said) in [(["--pitch", "30"], "--pitch 30: slomo shifts the pitch by -24 to 24 semitones"),
                                  (["--pitch", "2", "--audio", "varispeed"], "varispeed's pitch follows its rate")] {
            let pitch = try Slomo.run(["play", clip] + arguments, environment: Self.noDisplay)
            print("play \(arguments.joined(separator: " ")): exit \(pitch.status): \(pitch.standardError)")
            #expect(pitch.status == 64 && pitch.standardError.contains(said), "\(pitch.standardError)")
        }
    }

    /// A rate the algorithm cannot play falls back to the nearest one it can, with a message.
    @Test func aRateOutsideTheAlgorithmFallsBackWithAMessage() throws {
        let (result, heard) = try Self.playSound([try Fixture.longFlashAndBeep.path, "--audio", "low-latency", "--rate", "4",
                                                  "--start", "9"], label: "play-fallback")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("rate 4 is outside what low-latency can play here; playing at 2"),
                "\(result.standardError)")
        // One second of source at 2x: half a second of sound.
        #expect(abs(heard - 0.5) < 0.1, "\(heard) s heard")
    }

    /// Damage the decoders meet while playing is said once, and playing goes on: the lost
    /// audio packet of the spoiled clip plays as silence, and the sound lasts as long as it
    /// should.
    @Test func damageMetWhilePlayingIsSaid() throws {
        let movie = try DamagedInputTests.spoiledCopy(in: try FixtureCache.shared.scratchFolder("play-damaged-input"))
        defer { try? FileManager.default.removeItem(at: movie.deletingLastPathComponent()) }
        let (result, heard) = try Self.playSound([movie.path, "--start", "2.5"], label: "play-damaged")
        #expect(result.status == 0, "\(result.standardError)")
        let said = result.standardError.split(separator: "\n").filter { $0.contains("could not be decoded") }
        #expect(said == ["slomo play: \(movie.path): audio: 1 packet could not be decoded cleanly at 3.20 s (file damaged?)"],
                "\(result.standardError)")
        #expect(abs(heard - 7.5) < 0.2, "\(heard) s heard")
    }

    /// `--loop` starts again at the beginning; Ctrl-C stops it with status 130.
    @Test func loopsUntilInterrupted() throws {
        let folder = try FixtureCache.shared.scratchFolder("play-loop")
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("log.jsonl").path
        let clip = try Fixture.videoOnly.path
        let player = try BackgroundCommand(try Slomo.executable, ["play", clip, "--start", "1.5", "--loop", "--presentation-log", log],
                                           environment: Self.headless(folder))
        Thread.sleep(forTimeInterval: 1.5)
        player.process.interrupt()
        let (status, errors) = player.wait()
        #expect(status == 130, "\(errors)")
        let times = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").filter { $0.contains("\"frame\"") }
            .compactMap { $0.firstMatch(of: /"outputTime":([0-9.e-]+)/).flatMap { Double($0.1) } }
        let wraps = zip(times, times.dropFirst()).filter { $1 < $0 }.count
        #expect(wraps >= 1, "played \(times.first ?? -1) … \(times.last ?? -1) s without starting again")
        #expect(times.contains(0), "the loop starts at the first frame")
    }

    /// No sound device: pictures play on a monotonic clock, with one warning.
    @Test func withoutASoundDeviceItPlaysSilently() throws {
        let folder = try FixtureCache.shared.scratchFolder("play-nosound")
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("log.jsonl").path
        let start = Date()
        let result = try Slomo.run(["play", try Fixture.longFlashAndBeep.path, "--start", "9", "--presentation-log", log],
                                   environment: ["SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "no-such-driver"])
        let elapsed = Date().timeIntervalSince(start)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.components(separatedBy: "no sound device").count == 2, "\(result.standardError)")
        #expect(elapsed > 0.9 && elapsed < 3, "one second of pictures took \(elapsed) s")
        let frames = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").filter { $0.contains("\"frame\"") }
        #expect(frames.count >= 55, "\(frames.count) pictures in a second at 60 Hz")
    }

    /// Under Xvfb: the window opens at the movie's size and shows the picture sought to.
    // Serialized: two Xvfb servers started at once can claim the same display, and then the
    // windows overlap on it.
    @Suite(.serialized, .enabled(if: VirtualDisplay.isInstalled, "needs Xvfb (scripts/setup installs it)")) struct Window {
        /// What `slomo play CLIP --start START --paused` shows under Xvfb: the window's size and
        /// a PNG of its picture, with the presentation log's lines.
        static func screenshot(_ clip: String, start: String, folder: URL) throws
            -> (width: Int, height: Int, shot: String, shown: [Substring]) {
            let screen = try #require(VirtualDisplay.start(size: "800x600x24"), "Xvfb is installed but did not start")
            defer { screen.stop() }
            let log = folder.appendingPathComponent("log.jsonl").path
            let player = try BackgroundCommand(try Slomo.executable, ["play", clip, "--start", start, "--paused",
                                                                      "--presentation-log", log],
                                               environment: ["DISPLAY": screen.display, "SDL_VIDEODRIVER": "x11"])
            defer { player.process.interrupt(); player.process.waitUntilExit() }
            var geometry: (x: Int, y: Int, width: Int, height: Int)?
            for _ in 0..<100 where geometry == nil {
                Thread.sleep(forTimeInterval: 0.1)
                geometry = Self.window(named: "slomo — \((clip as NSString).lastPathComponent)", on: screen.display)
            }
            let window = try #require(geometry, "no slomo window appeared: \(player.standardError)")
            Thread.sleep(forTimeInterval: 0.5)
            let shot = folder.appendingPathComponent("shot.png").path
            _ = try runChecked("ffmpeg", ["-v", "error", "-y", "-f", "x11grab", "-draw_mouse", "0",
                                          "-video_size", "\(window.width)x\(window.height)",
                                          "-i", "\(screen.display)+\(window.x),\(window.y)", "-frames:v", "1", shot])
            let shown = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").filter { $0.contains("\"frame\"") }
            return (window.width, window.height, shot, shown)
        }

        /// ffmpeg's decode of frame `n` of `clip` through `filters` (it applies the display matrix itself).
        static func reference(_ clip: String, frame n: Int, filters: String = "", folder: URL) throws -> String {
            let path = folder.appendingPathComponent("reference.png").path
            _ = try runChecked("ffmpeg", ["-v", "error", "-y", "-i", clip, "-vf", "select=eq(n\\,\(n))\(filters)", "-frames:v", "1", path])
            return path
        }

        @Test func showsTheFrameSoughtTo() throws {
            let folder = try FixtureCache.shared.scratchFolder("play-window")
            defer { try? FileManager.default.removeItem(at: folder) }
            let clip = try Fixture.videoOnly.path
            let screen = try Self.screenshot(clip, start: "1", folder: folder)
            #expect(screen.width == 320 && screen.height == 240, "window \(screen.width)x\(screen.height)")
            // The picture at output time 1 s of a 60 fps clip is frame 60. The status line covers
            // the bottom 25 rows while paused: the picture above it is judged.
            let psnr = try Self.psnr(screen.shot, try Self.reference(clip, frame: 60, folder: folder), crop: "crop=320:210:0:0")
            print(String(format: "play under Xvfb: window %dx%d, frame 60 on screen at %.1f dB PSNR (rows 0–209)",
                         screen.width, screen.height, psnr))
            #expect(psnr >= 35)
            #expect(screen.shown.first?.contains("\"sourceTime\":1,") == true, "\(screen.shown.first ?? "")")
        }

        /// A movie whose display matrix turns it a quarter: the window is upright, as ffmpeg shows it.
        @Test func keepsTheRotation() throws {
            let folder = try FixtureCache.shared.scratchFolder("play-rotated")
            defer { try? FileManager.default.removeItem(at: folder) }
            let clip = try Fixture.rotated.path
            let screen = try Self.screenshot(clip, start: "1", folder: folder)
            #expect(screen.width == 240 && screen.height == 320, "window \(screen.width)x\(screen.height)")
            let psnr = try Self.psnr(screen.shot, try Self.reference(clip, frame: 60, folder: folder), crop: "crop=240:290:0:0")
            print(String(format: "play under Xvfb: rotated clip upright in %dx%d at %.1f dB PSNR", screen.width, screen.height, psnr))
            #expect(psnr >= 35)
        }

        /// 10-bit PQ HDR shown tone-mapped to SDR: as ffmpeg's zimg chain tone-maps it, and far
        /// from the same picture taken as SDR.
        @Test func toneMapsHDR() throws {
            let folder = try FixtureCache.shared.scratchFolder("play-hdr")
            defer { try? FileManager.default.removeItem(at: folder) }
            let clip = try Fixture.pq.path
            let screen = try Self.screenshot(clip, start: "0.4", folder: folder)
            #expect(screen.width == 320 && screen.height == 180)
            let toneMapped = try Self.psnr(screen.shot, try Self.reference(clip, frame: 10, filters: ",zscale=tin=smpte2084:min=bt2020nc:pin=bt2020:t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,tonemap=tonemap=hable:desat=0,zscale=t=bt709:m=bt709:r=tv,format=yuv420p", folder: folder),
                                           crop: "crop=320:150:0:0")
            let untouched = try Self.psnr(screen.shot, try Self.reference(clip, frame: 10, folder: folder), crop: "crop=320:150:0:0")
            print(String(format: "play under Xvfb: PQ clip at %.1f dB against ffmpeg's tone-mapped decode, %.1f dB against its plain decode",
                         toneMapped, untouched))
            #expect(toneMapped >= 35)
            #expect(untouched < toneMapped - 5)
        }

        /// The position and size of the window whose title starts with `name`, from xwininfo's
        /// tree (`0x… "title": ("slomo" "slomo")  320x240+0+0  +240+180`).
        static func window(named name: String, on display: String) -> (x: Int, y: Int, width: Int, height: Int)? {
            guard let info = try? runCommand("/usr/bin/xwininfo", ["-display", display, "-root", "-tree"]), info.status == 0,
                  let line = info.standardOutput.split(separator: "\n").first(where: { $0.contains("\"\(name)") }),
                  let match = line.firstMatch(of: /(\d+)x(\d+)[+-]-?\d+[+-]-?\d+\s+\+(-?\d+)\+(-?\d+)\s*$/) else { return nil }
            return (Int(match.3)!, Int(match.4)!, Int(match.1)!, Int(match.2)!)
        }

        /// ffmpeg's average PSNR of `a` against `b`, both cut by the `crop` filter.
        static func psnr(_ a: String, _ b: String, crop: String) throws -> Double {
            let result = try runCommand("ffmpeg", ["-v", "info", "-nostdin", "-i", a, "-i", b,
                                                   "-lavfi", "[0]\(crop)[a];[1]\(crop)[b];[a][b]psnr", "-f", "null", "-"])
            let match = result.standardError.firstMatch(of: /average:([0-9.]+|inf)/)
            let text = try #require(match?.1, "no PSNR in \(result.standardError)")
            return text == "inf" ? 99 : Double(text)!
        }
    }
}
