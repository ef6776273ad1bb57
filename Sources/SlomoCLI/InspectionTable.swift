import Foundation
import SlomoCore
import SlomoMedia

/// The human form of `slomo inspect`: one block for the file, one per stream, aligned
/// `label  value` rows, and after `--verify` the verdict last.
struct InspectionTable {
    let file: MediaFile

    init(_ file: MediaFile) { self.file = file }

    var text: String {
        var blocks = [fileRows]
        blocks += file.streams.map(streamRows)
        if let verification = file.verification { blocks.append([("verified", verification.verdict)]) }
        return blocks.map(Self.aligned).joined(separator: "\n\n")
    }

    private var fileRows: [(String, String)] {
        var rows = [("file", file.path), ("container", "\(file.container.longName) (\(file.container.name))")]
        rows.append(("duration", file.duration.map(Self.seconds) ?? "unknown"))
        if let bitRate = file.bitRate { rows.append(("bit rate", Self.bitRate(bitRate))) }
        if let capture = file.captureFrameRate { rows.append(("capture fps", Self.number(capture))) }
        rows += (file.damage ?? []).map { ("damaged", $0.message) }
        return rows
    }

    private func streamRows(_ stream: StreamInfo) -> [(String, String)] {
        var codec = stream.codec.name
        if let profile = stream.codec.profile { codec += " (\(profile))" }
        if let tag = stream.codec.tag { codec += " [\(tag)]" }
        var rows = [("stream #\(stream.index)", stream.kind.rawValue + (stream.isAttachedPicture ? " (cover art)" : "")),
                    ("codec", codec)]
        if let video = stream.video { rows += videoRows(video) }
        if let audio = stream.audio {
            rows.append(("audio", "\(audio.sampleRate) Hz, \(audio.channelLayout) (\(audio.channels) ch), \(audio.sampleFormat)"))
        }
        if let duration = stream.duration { rows.append(("duration", Self.seconds(duration))) }
        if let count = stream.frameCount { rows.append(("frames", "\(count)")) }
        if let timing = stream.frameTiming { rows += timingRows(timing) }
        if let bitRate = stream.bitRate { rows.append(("bit rate", Self.bitRate(bitRate))) }
        rows.append(("time base", stream.timeBase.description))
        return rows
    }

    private func videoRows(_ video: VideoInfo) -> [(String, String)] {
        var picture = "\(video.width)x\(video.height), \(video.pixelFormat)"
        if let depth = video.bitDepth { picture += ", \(depth)-bit" }
        if let sar = video.sampleAspectRatio, sar != Rational(1) { picture += ", SAR \(sar.numerator):\(sar.denominator)" }
        var rows = [("picture", picture)]
        if video.rotation != 0 { rows.append(("rotation", "\(video.rotation)°")) }
        let nominal = video.nominalFrameRate.map(Self.rate) ?? "unknown"
        let average = video.averageFrameRate.map(Self.rate) ?? "unknown"
        rows.append(("frame rate", "\(nominal) nominal, \(average) average" + (video.highFrameRate ? "  (high frame rate)" : "")))
        let color = [video.color.primaries, video.color.transfer, video.color.matrix, video.color.range]
            .map { $0 ?? "unspecified" }
        rows.append(("colour", "primaries \(color[0]), transfer \(color[1]), matrix \(color[2]), range \(color[3])"))
        if let hdr = video.hdr { rows += hdrRows(hdr) }
        return rows
    }

    private func hdrRows(_ hdr: HDRInfo) -> [(String, String)] {
        var kind = hdr.kind.rawValue
        if let profile = hdr.dolbyVisionProfile { kind += " profile \(profile)" + (hdr.dolbyVisionLevel.map { ", level \($0)" } ?? "") }
        var rows = [("HDR", kind)]
        if let display = hdr.masteringDisplay, let min = display.minLuminance, let max = display.maxLuminance {
            rows.append(("mastering", "\(Self.number(min))–\(Self.number(max)) nits"))
        }
        if let light = hdr.contentLight {
            rows.append(("content light", "MaxCLL \(light.maxContentLightLevel), MaxFALL \(light.maxFrameAverageLightLevel) nits"))
        }
        return rows
    }

    private func timingRows(_ timing: FrameTiming) -> [(String, String)] {
        let intervals = [timing.minimumInterval, timing.medianInterval, timing.maximumInterval]
            .map { $0.map { Self.number($0.doubleSeconds * 1000) + " ms" } ?? "–" }
        return [("packets", "\(timing.frameCount)"),
                ("intervals", "min \(intervals[0]), median \(intervals[1]), max \(intervals[2])"),
                ("timing", timing.isVariableFrameRate ? "variable frame rate" : "constant frame rate")]
    }

    static func aligned(_ rows: [(String, String)]) -> String {
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { label, value in label.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + value }
            .joined(separator: "\n")
    }

    private static func rate(_ rate: Rational) -> String {
        rate.denominator == 1 ? rate.description : "\(rate) (≈\(number(rate.doubleValue)))"
    }

    private static func seconds(_ time: MediaTime) -> String { String(format: "%.3f s", time.doubleSeconds) }

    private static func bitRate(_ bitsPerSecond: Int) -> String { number(Double(bitsPerSecond) / 1000, decimals: 0) + " kb/s" }

    private static func number(_ value: Double, decimals: Int = 3) -> String {
        var text = String(format: "%.\(decimals)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }
}
