import Foundation
import SlomoCore

/// Writes a `Timeline` as Final Cut Pro XML 1.10 (`.fcpxml`): one project whose spine holds an
/// `asset-clip` per segment of the time map, each retimed by a `timeMap`. A clip's local time
/// starts at its first source time, so its `start` is where it enters the media and its
/// `duration` its time in the project; `timept`s map local time to media time, `linear` for
/// constant rates and `smooth2` through the steps of a ramp (eased ramps too: the points lie on
/// the exact curve). A reversed section's two points go backwards, from its media end down to
/// its start, as Final Cut's time maps play a negative speed. Times are exact rationals
/// (`1001/30000s`); clip edges and time points lie on whole frames of the project's rate, media
/// times on the source's frames.
public enum FCPXMLWriter {
    /// Rates Final Cut accepts as a conform rate's `srcFrameRate`.
    static let conformRates: [Rational: String] = [
        Rational(24000, 1001): "23.98", Rational(24): "24", Rational(25): "25", Rational(30000, 1001): "29.97",
        Rational(30): "30", Rational(48000, 1001): "47.95", Rational(48): "48", Rational(50): "50",
        Rational(60000, 1001): "59.94", Rational(60): "60",
    ]

    /// The `.fcpxml` text of `timeline`.
    public static func text(_ timeline: Timeline) -> String {
        var formats: [Rational: String] = [:]
        var resources: [String] = []
        func format(_ rate: Rational, width: Int, height: Int) -> String {
            if let id = formats[rate] { return id }
            let id = "r\(formats.count + 1)"
            formats[rate] = id
            resources.append(#"<format id="\#(id)" frameDuration="\#(time(rate.reciprocal))" width="\#(width)" height="\#(height)"/>"#)
            return id
        }
        let first = timeline.media.first
        let sequenceFormat = format(timeline.frameRate, width: first?.width ?? 1920, height: first?.height ?? 1080)
        let assetIDs = timeline.media.enumerated().map { index, _ in "a\(index + 1)" }
        for (index, media) in timeline.media.enumerated() {
            let mediaFormat = format(media.frameRate ?? timeline.frameRate, width: media.width, height: media.height)
            var attributes = #"id="\#(assetIDs[index])" name="\#(XMLText.escaped(media.name))" start="0s" duration="\#(time(media.duration.seconds))" hasVideo="\#(media.width > 0 ? 1 : 0)" format="\#(mediaFormat)""#
            if let rate = media.audioRate, let channels = media.audioChannels {
                attributes += #" hasAudio="1" audioSources="1" audioChannels="\#(channels)" audioRate="\#(rate)""#
            }
            resources.append("<asset \(attributes)>\n        <media-rep kind=\"original-media\" src=\"\(XMLText.escaped(media.url))\"/>\n      </asset>")
        }

        var clips: [String] = []
        for group in groups(timeline.events) {
            let head = group[0], media = timeline.media[head.media]
            let localStart = head.source.start
            let outputStart = head.placed.start
            let duration = group.last!.placed.end - outputStart
            let interpolation = head.ramp == nil ? "linear" : "smooth2"
            let points = head.reversed ? [(outputStart, head.source.end), (head.placed.end, head.source.start)]
                : [(outputStart, head.source.start)] + group.map { ($0.placed.end, $0.source.end) }
            let timepts = points.map { output, source in
                #"<timept time="\#(time((localStart + (output - outputStart)).seconds))" value="\#(time(source.seconds))" interp="\#(interpolation)"/>"#
            }
            var body = ["<timeMap>"] + timepts.map { "  " + $0 } + ["</timeMap>"]
            if let rate = media.frameRate, rate != timeline.frameRate, let conform = conformRates[rate] {
                body.insert(#"<conform-rate scaleEnabled="0" srcFrameRate="\#(conform)"/>"#, at: 0)
            }
            let attributes = #"ref="\#(assetIDs[head.media])" name="\#(XMLText.escaped(media.name))" offset="\#(time(outputStart.seconds))" start="\#(time(localStart.seconds))" duration="\#(time(duration.seconds))""#
            clips.append("<asset-clip \(attributes)>\n" + body.map { "              " + $0 }.joined(separator: "\n")
                         + "\n            </asset-clip>")
        }

        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE fcpxml>
            <fcpxml version="1.10">
              <resources>
                \(resources.joined(separator: "\n    "))
              </resources>
              <library>
                <event name="slomo">
                  <project name="\(XMLText.escaped(timeline.name))">
                    <sequence format="\(sequenceFormat)" duration="\(time(timeline.duration.seconds))" tcStart="0s" tcFormat="NDF">
                      <spine>
                        \(clips.joined(separator: "\n            "))
                      </spine>
                    </sequence>
                  </project>
                </event>
              </library>
            </fcpxml>

            """
    }

    /// Events grouped into clips: a constant event alone, the steps of one ramp together.
    static func groups(_ events: [Timeline.Event]) -> [[Timeline.Event]] {
        var groups: [[Timeline.Event]] = []
        for event in events {
            if let ramp = event.ramp, let last = groups.last?.last, last.ramp == ramp, last.clip == event.clip {
                groups[groups.count - 1].append(event)
            } else {
                groups.append([event])
            }
        }
        return groups
    }

    /// An FCPXML time: `"2s"`, `"1001/30000s"`.
    static func time(_ seconds: Rational) -> String {
        seconds.denominator == 1 ? "\(seconds.numerator)s" : "\(seconds.numerator)/\(seconds.denominator)s"
    }
}
