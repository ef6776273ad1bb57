import PropertyBased
import SlomoCore
import SlomoScript
import Testing

/// Whatever a script holds, writing it as YAML or JSON and reading it back gives an equal
/// script, and writing that again gives the same text: random scripts built from the section
/// syntax, every kind of edge and option, output settings, and file names that YAML would read
/// as something else.
@Suite struct EditScriptRoundTripTests {
    static let numbers = Gen.int(in: 0...1_000_000).array(of: 1...16)

    /// Sources a writer must quote or escape to read them back as the same text.
    static let awkwardNames = ["take.mov", "1.5", "00:00:01:00", "yes", "no", "null", "~", "true", "f48", "end", "1/3",
                               "café ☕.mov", "a: b.mov", "#1.mov", "- dash.mov", "[x].mov", "{y}.mov", "'single'.mov",
                               "quote\"and\\backslash.mov", "line\nbreak.mov", "tab\t.mov", " leading.mov", "trailing.mov ",
                               "\u{1}control.mov", "*star.mov", "&amp.mov", "!bang.mov", "%percent.mov", "@at.mov", "`tick`.mov",
                               "../footage/clip.mov", "/media/x y/clip.mov"]
    static let rates = ["0.25", "1/3", "2", "0.125", "32", "1/32", "3/2", "-0.5", "-1", "-1/4"]
    static let eases = ["smooth", "linear", "in", "out", "in-out", "cubic-bezier(0.25,0.1,0.25,1)"]

    /// A section in the section syntax from `n`, starting `gap` after `cursor` (ms) and lasting
    /// at least 200 ms; returns its text and its end (ms).
    static func section(_ n: Int, after cursor: Int) -> (text: String, end: Int) {
        let start = cursor + (n % 3 == 0 ? 0 : n % 2000), end = start + 200 + (n / 7) % 4000
        func edge(_ ms: Int) -> String {
            switch (n / 5) % 4 {
            case 0: return "\(ms)ms"
            case 1: return "f\(ms * 240 / 1000)"
            case 2:
                let frames = ms * 30 / 1000
                return String(format: "00:%02d:%02d:%02d", frames / 1800, frames / 30 % 60, frames % 30)
            default: return MediaTime(value: Int64(ms), timescale: 1000).exactDescription
            }
        }
        let rate = rates[(n / 11) % rates.count]
        var text = "\(edge(start))-\(edge(end))x\(rate)"
        if !rate.hasPrefix("-") {
            switch (n / 13) % 3 {
            case 0: break
            case 1: text += ":ramp=0.1"
            default: text += ":ramp-in=0.05:ramp-out=80ms"
            }
            if (n / 13) % 3 != 0, (n / 17) % 2 == 0 { text += ":ease=" + eases[(n / 19) % eases.count] }
        }
        let algorithm = (n / 23) % 5 < 4 ? TimePitchAlgorithm.allCases[(n / 23) % 5] : nil
        if let algorithm { text += ":audio=\(algorithm.rawValue)" }
        if algorithm != .varispeed, (n / 29) % 3 == 0 { text += ":pitch=\([-12, -2.5, 0.5, 3, 7][(n / 31) % 5])" }
        if (n / 37) % 2 == 0 { text += ":frames=\(FrameChoice.allCases[(n / 41) % FrameChoice.allCases.count].rawValue)" }
        return (text, end)
    }

    /// A script of one to three clips from `numbers`: edges, sections, freezes and output settings.
    static func script(_ numbers: [Int]) throws -> EditScript {
        var clips: [EditScript.Clip] = []
        let clipCount = 1 + numbers[0] % 3
        for c in 0..<clipCount {
            let mine = numbers.enumerated().filter { $0.offset % clipCount == c }.map(\.element)
            let first = mine.first ?? c
            var clip = EditScript.Clip(source: awkwardNames[(first + c) % awkwardNames.count])
            if first % 4 == 1 { clip.start = .time(MediaTime(value: Int64(first % 500), timescale: 1000)) }
            if first % 5 == 2 { clip.end = .frame(Int64(100_000 + first % 1000)) }
            var cursor = 0
            for n in mine {
                let (text, end) = section(n, after: cursor)
                clip.sections.append(try SectionSpec(parsing: text))
                cursor = end
            }
            if first % 3 == 0 {
                clip.freezes = [FreezeSpec(at: .time(MediaTime(value: Int64(cursor + 10), timescale: 1000)),
                                           duration: MediaTime(value: Int64(1 + first % 3000), timescale: 1000),
                                           audio: first % 2 == 0 ? .freeze : .silence),
                                FreezeSpec(at: .frame(Int64(first % 100)), duration: MediaTime(value: 1, timescale: 3))]
            }
            clips.append(clip)
        }
        return EditScript(clips: clips, output: output(numbers[0]))
    }

    /// Output settings from `n`: none, some or all of them.
    static func output(_ n: Int) -> OutputSettings {
        guard n % 4 != 0 else { return OutputSettings() }
        let rates = [Rational(30000, 1001), Rational(25), Rational(24000, 1001), Rational(25, 2), Rational(2997, 100),
                     Rational(120), Rational(1, 3)]
        var output = OutputSettings(mode: OutputSettings.Mode.allCases[n % 2], fps: rates[(n / 3) % rates.count])
        guard n % 4 != 1 else { return output }
        output.codec = ["h264", "hevc", "prores", "a: b"][(n / 5) % 4]
        output.frames = FrameChoice.allCases[(n / 7) % FrameChoice.allCases.count]
        output.interpolation = InterpolationPreset.allCases[(n / 11) % InterpolationPreset.allCases.count]
        output.shutter = Shutter(angle: [Rational(180), Rational(345, 2), Rational(0), Rational(360), Rational(1, 3)][(n / 13) % 5],
                                 samples: 1 + (n / 17) % 8)
        output.size = OutputSettings.Size(width: 2 * (1 + (n / 19) % 2000), height: 2 * (1 + (n / 23) % 1200))
        output.scaling = OutputSettings.Scaling.allCases[(n / 29) % OutputSettings.Scaling.allCases.count]
        output.audio = TimePitchAlgorithm.allCases[(n / 31) % TimePitchAlgorithm.allCases.count]
        output.audioCodec = ["aac", "pcm_s24le", "flac"][(n / 37) % 3]
        output.spectralEngine = SpectralEngine.allCases[(n / 41) % SpectralEngine.allCases.count]
        return output
    }

    @Test func yamlReadsBackEqualAndWritesTheSameText() async {
        await propertyCheck(count: 200, input: Self.numbers) { numbers in
            let script = try! Self.script(numbers)
            let yaml = script.yaml()
            do {
                let read = try EditScript(parsing: yaml)
                #expect(read == script, "\(yaml)")
                #expect(read.yaml() == yaml)
            } catch {
                Issue.record("\(error) reading\n\(yaml)")
            }
        }
    }

    @Test func jsonReadsBackEqualAndWritesTheSameText() async {
        await propertyCheck(count: 200, input: Self.numbers) { numbers in
            let script = try! Self.script(numbers)
            let json = script.json()
            do {
                let read = try EditScript(parsing: json)
                #expect(read == script, "\(json)")
                #expect(read.json() == json)
            } catch {
                Issue.record("\(error) reading\n\(json)")
            }
        }
    }

    /// Every awkward name on its own, in both forms (the property mixes them with the rest).
    @Test(arguments: awkwardNames)
    func awkwardSourcesReadBackAsWritten(name: String) throws {
        let script = EditScript(clips: [.init(source: name)])
        #expect(try EditScript(parsing: script.yaml()).clips[0].source == name, "\(script.yaml())")
        #expect(try EditScript(parsing: script.json()).clips[0].source == name, "\(script.json())")
    }

    /// A frame rate is written so that it reads back as itself: an NTSC fraction as text (29.97
    /// would read as 30000/1001 too), but also 2997/100, whose decimal would not.
    @Test func frameRatesReadBackExactly() throws {
        for fps in [Rational(30000, 1001), Rational(2997, 100), Rational(5994, 100), Rational(25), Rational(25, 2), Rational(1, 3)] {
            let script = EditScript(clips: [.init(source: "a.mov")], output: OutputSettings(mode: .cfr, fps: fps))
            #expect(try EditScript(parsing: script.yaml()).output.fps == fps, "\(script.yaml())")
            #expect(try EditScript(parsing: script.json()).output.fps == fps, "\(script.json())")
        }
    }
}
