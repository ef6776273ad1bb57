import Foundation
import SlomoTestSupport
import Testing

// Nested in CaptureCommandTests, which is serialized: capture tests measure timing and must
// not compete with each other for the two cores.
extension CaptureCommandTests {
    /// `slomo capture --preview` under Xvfb: what the window shows is what is being recorded.
    @Suite(.enabled(if: VirtualDisplay.isInstalled, "needs Xvfb (scripts/setup installs it)")) struct Preview {
        /// The test pattern's box moves 8 px a frame through a cycle of 194 pictures at
        /// 640x360 (the box is 30 px, so it runs over 610 px): its position is the frame counter.
        static func frameInCycle(boxAt x: Int) -> Int? {
            (0..<194).first { $0 * 8 % 610 == x }
        }

        /// The left edge of the white box on row 180 of a 640x360 RGB24 screenshot.
        static func boxPosition(_ pixels: Data) -> Int? {
            let row = [UInt8](pixels.subdata(in: 180 * 640 * 3 ..< 181 * 640 * 3))
            let white = (0..<640).map { x in row[x * 3] >= 245 && row[x * 3 + 1] >= 245 && row[x * 3 + 2] >= 245 }
            return white.indices.first { x in x + 20 <= 640 && white[x..<x + 20].allSatisfy { $0 } }
        }

        /// Screenshots taken by ffmpeg's x11grab while a 240 fps test pattern records: the
        /// pattern's frame counter on screen is within 3 frames of the newest recorded frame at
        /// the moment of the shot (x11grab's wall-clock stamp placed on the session clock by the
        /// preview log); no recorded frame is dropped; skipped preview frames are counted.
        @Test func showsTheFrameBeingRecorded() throws {
            let screen = try #require(VirtualDisplay.start(size: "1024x768x24"), "Xvfb is installed but did not start")
            defer { screen.stop() }
            let folder = try FixtureCache.shared.scratchFolder("capture-preview")
            defer { try? FileManager.default.removeItem(at: folder) }
            let path = folder.appendingPathComponent("take.mov").path, log = folder.appendingPathComponent("preview.jsonl").path
            let recorder = try BackgroundCommand(try Slomo.executable,
                                                 ["capture", "--input", "testsrc:640x360@240", "--duration", "5", "--preview",
                                                  "--preview-log", log, "-o", path, "--progress", "json"],
                                                 environment: ["DISPLAY": screen.display, "SDL_VIDEODRIVER": "x11"])
            var geometry: (x: Int, y: Int, width: Int, height: Int)?
            for _ in 0..<100 where geometry == nil {
                Thread.sleep(forTimeInterval: 0.1)
                geometry = PlayCommandTests.Window.window(named: "slomo capture — take.mov", on: screen.display)
            }
            let window = try #require(geometry, "no preview window appeared: \(recorder.standardError)")
            #expect(window.width == 640 && window.height == 360, "window \(window.width)x\(window.height)")
            Thread.sleep(forTimeInterval: 1.0)
            var shots: [(path: String, wallClock: Double)] = []
            for index in 0..<3 {
                let shot = folder.appendingPathComponent("shot\(index).png").path
                let grab = try runChecked("ffmpeg", ["-v", "info", "-y", "-copyts", "-f", "x11grab", "-draw_mouse", "0", "-framerate", "30",
                                                     "-video_size", "640x360", "-i", "\(screen.display)+\(window.x),\(window.y)",
                                                     "-vf", "showinfo", "-frames:v", "1", shot])
                let stamp = try #require(grab.standardError.firstMatch(of: #/showinfo.* pts:(\d+)\s/#)?.1, "\(grab.standardError)")
                shots.append((shot, Double(stamp)! / 1e6))
                Thread.sleep(forTimeInterval: 0.4)
            }
            let (status, stderr) = recorder.wait()
            #expect(status == 0, "\(stderr)")
            let finished = try CaptureCommandTests.finishedLine(stderr)
            let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
                .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            let first = try #require(lines.first)
            let (sequence0, captured0) = (first["sequence"] as? Int ?? 0, first["captured"] as? Double ?? 0)
            let origin = first["origin"] as? Double ?? 0, offset = first["realtimeOffset"] as? Double ?? 0
            let latencies = lines.map { ($0["shown"] as? Double ?? 0) - ($0["captured"] as? Double ?? 0) }.sorted()
            let summary = stderr.split(separator: "\n").first { $0.hasPrefix("preview:") } ?? ""
            print("preview: \(lines.count) frames shown, median latency \(String(format: "%.1f", latencies[latencies.count / 2] * 1000)) ms, "
                  + "p99 \(String(format: "%.1f", latencies[latencies.count * 99 / 100] * 1000)) ms; \(summary); recording \(finished)")
            #expect(finished["dropped"] as? Int == 0, "no recorded frame dropped")
            #expect(finished["frames"] as? Int == 1200)
            #expect(summary.contains("skipped"), "preview frames skipped are counted")
            for shot in shots {
                let pixels = try StillProbe.pixels(of: shot.path, pixelFormat: "rgb24")
                let sessionTime = shot.wallClock - offset - origin
                let newest = sequence0 + Int(((sessionTime - captured0) * 240).rounded(.down))
                let x = try #require(Self.boxPosition(pixels), "no box in \(shot.path)")
                let inCycle = try #require(Self.frameInCycle(boxAt: x), "box at \(x) is no frame of the pattern")
                let candidates = stride(from: inCycle, through: newest + 194, by: 194)
                let onScreen = try #require(candidates.min { abs($0 - newest) < abs($1 - newest) })
                print("shot at session \(String(format: "%.4f", sessionTime)) s: newest recorded frame \(newest), on screen \(onScreen) "
                      + "(box at \(x) px): \(newest - onScreen) frames behind")
                #expect(abs(newest - onScreen) <= 3)
            }
        }
    }
}
