import Foundation
import SlomoCapture
import SlomoCore
import SlomoTestSupport
import Testing

// Nested in SessionTests, which is serialized: real-time sessions must not compete for the cores.
extension SessionTests {
    /// Tags added while recording land in the header of the fragmented file, judged by ffprobe.
    @Suite struct MetadataWhileRecording {
        static func formatTags(_ path: String) throws -> [String: String] {
            try FFprobe(path).format["tags"] as? [String: String] ?? [:]
        }

        @Test(arguments: ["mov", "mp4"])
        func tagsAddedWhileRecordingAreInTheFile(container: String) throws {
            let (session, take, path) = try startTestPatternRecording("capture-meta-\(container)",
                                                                      file: "take.\(container)", fps: 60) {
                $0.fragmentInterval = .seconds(0.5)
                $0.metadata = ["title": "Match point"]
            }
            usleep(300_000)
            try take.addMetadata(key: "com.example.take", value: "3")
            try take.addMetadata(key: "comment", value: "added while recording")
            usleep(1_200_000)
            // Written at a fragment boundary: a crash from now on keeps the tags.
            let live = try Self.formatTags(path)
            try take.addMetadata(key: "com.example.verdict", value: "in")
            session.stopRunning()
            #expect(session.waitUntilFinished(timeout: 20))
            #expect(take.result?.finishedSuccessfully == true)
            let tags = try Self.formatTags(path)
            print("\(container) tags while recording: \(live); finished: \(tags)")
            #expect(live["com.example.take"] == "3")
            #expect(live["comment"] == "added while recording")
            #expect(tags["title"] == "Match point")
            #expect(tags["com.example.take"] == "3")
            #expect(tags["comment"] == "added while recording")
            #expect(tags["com.example.verdict"] == "in", "added after the last fragment, written with the trailer")
            #expect(tags["creation_time"] != nil)
            let decoded = try runCommand("ffmpeg", ["-v", "error", "-i", path, "-f", "null", "-"])
            #expect(decoded.status == 0 && decoded.standardError.isEmpty, "\(decoded.standardError)")
            let frames = try videoPacketTimes(path).count
            #expect(frames == take.result?.videoFrames)
        }

        @Test func tagsBeyondTheHeaderRoomAreRefused() throws {
            let (session, take, path) = try startTestPatternRecording("capture-meta-big", fps: 30) {
                $0.maxDuration = .seconds(0.5)
            }
            do {
                try take.addMetadata(key: "notes", value: String(repeating: "x", count: 20_000))
                Issue.record("a 20 kB tag was accepted")
            } catch {
                #expect(error.kind == .invalidLimit)
                #expect(error.description.contains("headerReserveBytes"))
            }
            #expect(session.waitUntilFinished(timeout: 20))
            #expect(take.result?.finishedSuccessfully == true)
            #expect(try Self.formatTags(path)["notes"] == nil)
            do {
                try take.addMetadata(key: "late", value: "too late")
                Issue.record("a tag was accepted after the recording finished")
            } catch {
                #expect(error.kind == .outputProblem)
            }
        }
    }
}
