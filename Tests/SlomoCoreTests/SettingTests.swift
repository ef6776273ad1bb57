import SlomoCore
import Testing

/// Settings are open (each module declares its own) and errors word them as each front end
/// names them.
@Suite("Settings named by front ends")
struct SettingTests {
    @Test func aSettingIsItsIdentifierAndSpeaksInWords() {
        #expect(Setting("keyframeInterval").name == "keyframe interval")
        #expect(Setting("crf").name == "crf")
        let angle = Setting("shutter", name: "shutter angle")
        #expect(angle == Setting("shutter"), "the same setting, whatever its prose")
        #expect(Set([angle, Setting("shutter")]).count == 1)
        #expect(angle.description == "shutter angle")
    }

    @Test func placeholdersNameOtherSettingsAsTheFrontEndDoes() {
        let issue = SettingIssue(Setting("profile"), "main12", "unknown for {codec} h264; use {codec} hevc or allow {toneMapping}",
                                 subject: nil)
        #expect(issue.description == "profile main12: unknown for codec h264; use codec hevc or allow tone mapping")
        #expect(issue.text { "--" + $0.rawValue } == "--profile main12: unknown for --codec h264; use --codec hevc or allow --toneMapping")
        // Braces around anything but a bare identifier are left as they are.
        let plain = SettingIssue(Setting("input"), nil, "a {1} and {two words} and an unclosed {brace")
        #expect(plain.problem(naming: { "<\($0.rawValue)>" }) == "a {1} and {two words} and an unclosed {brace")
    }

    struct Refusal: SettingError {
        var issue: SettingIssue? { nil }
        var hint: Hint? { Hint("listDevices", prose: "list the devices to find its name") }
        func text(naming name: (Setting) -> String) -> String { "/dev/video9: no such device" }
        var description: String { message() }
    }

    @Test func aHintIsWordedByTheFrontEnd() {
        #expect(Refusal().description == "/dev/video9: no such device (list the devices to find its name)")
        #expect(Refusal().message(hinting: { $0 == Hint("listDevices", prose: "") ? "run `slomo devices`" : $0.prose })
                    == "/dev/video9: no such device (run `slomo devices`)")
    }
}
