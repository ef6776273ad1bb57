import Foundation
import SlomoTestSupport
import Testing

/// `slomo devices`: no device here says so; recorded cameras are listed through the fake ioctl layer.
@Suite struct CaptureDevicesTests {
    static var fixtures: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("SlomoCaptureTests/Fixtures")
    }

    @Test func noDeviceSaysSoAndExitsZero() throws {
        let empty = try FixtureCache.shared.scratchFolder("devices-empty")
        let result = try Slomo.run(["devices", "--dev", empty.path])
        #expect(result.status == 0)
        let said = result.standardOutput.contains("No capture devices found") || result.standardOutput.contains("Cameras: none")
        #expect(said, "\(result.standardOutput)")
    }

    @Test func jsonListsARecordedCamera() throws {
        let result = try Slomo.run(["devices", "--json", "--recorded", Self.fixtures.appendingPathComponent("hfr-usb-camera.txt").path])
        #expect(result.status == 0, "\(result.standardError)")
        let root = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any] ?? [:]
        #expect(root["schemaVersion"] as? Int == 1)
        let cameras = root["cameras"] as? [[String: Any]] ?? []
        let formats = cameras.first?["formats"] as? [[String: Any]] ?? []
        #expect(formats.count == 5)
        #expect(formats.first?["fourCC"] as? String == "MJPG")
    }

    @Test func tableListsFormatsAndRates() throws {
        let result = try Slomo.run(["devices", "--recorded", Self.fixtures.appendingPathComponent("hfr-usb-camera.txt").path])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("MJPG 1280x720 @ 240, 120, 60, 30 fps"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("29.970"))
    }
}
