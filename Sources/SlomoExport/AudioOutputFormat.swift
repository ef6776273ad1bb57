import Foundation
import SlomoMedia

/// A file format rendered audio is written in, chosen by the output's extension: the codecs it
/// holds (the first is its default) and whether it is a movie container, which holds audio
/// alone only when the input has no video. `all` is the table `slomo stretch` documents.
public struct AudioOutputFormat: Sendable, Hashable, CustomStringConvertible {
    /// The extension, lower-case, without the dot: `wav`, `m4a`.
    public let fileExtension: String
    /// The codecs this format holds, its default first.
    public let codecs: [AudioCodec]
    /// True for movie containers (.mov, .mp4, .mkv), false for audio files.
    public let isMovie: Bool

    private init(_ fileExtension: String, _ codecs: [AudioCodec], isMovie: Bool = false) {
        self.fileExtension = fileExtension
        self.codecs = codecs
        self.isMovie = isMovie
    }

    /// Every format, audio files first; each holds exactly these codecs in Debian's FFmpeg 5.1
    /// (FLAC in .mp4 is experimental there, Opus and FLAC are refused by .mov).
    public static let all: [AudioOutputFormat] = [
        AudioOutputFormat("wav", [.pcm]),
        AudioOutputFormat("flac", [.flac]),
        AudioOutputFormat("m4a", [.aac, .alac]),
        AudioOutputFormat("mp3", [.mp3]),
        AudioOutputFormat("opus", [.opus]),
        AudioOutputFormat("ogg", [.vorbis, .opus]),
        AudioOutputFormat("mov", [.aac, .alac, .pcm], isMovie: true),
        AudioOutputFormat("mp4", [.aac, .alac, .mp3, .opus], isMovie: true),
        AudioOutputFormat("mkv", [.aac, .alac, .pcm, .flac, .mp3, .opus, .vorbis], isMovie: true),
    ]

    /// The format of a file named `path`; nil for an extension not in the table.
    public init?(path: String) {
        let name = URL(fileURLWithPath: path).pathExtension.lowercased()
        guard let format = Self.all.first(where: { $0.fileExtension == name }) else { return nil }
        self = format
    }

    /// The format of a file named `path`; throws `.unsupportedContainer`, listing every format,
    /// for an extension not in the table.
    public static func of(_ path: String) throws -> AudioOutputFormat {
        guard let format = AudioOutputFormat(path: path) else {
            let names = joined(all.map { "." + $0.fileExtension })
            throw ExportError(.unsupportedContainer, "\(path): audio is written as \(names); valid pairs: \(pairs)")
        }
        return format
    }

    /// The default codec: what the format is written with unless another is asked for.
    public var defaultCodec: AudioCodec { codecs[0] }

    /// `requested` (nil: the default codec) when this format holds it; otherwise throws
    /// `.unsupportedCodec` naming the formats that hold it and listing every pair.
    public func codec(_ requested: AudioCodec?, for path: String) throws -> AudioCodec {
        guard let requested else { return defaultCodec }
        guard codecs.contains(requested) else {
            let holders = joined(Self.all.filter { $0.codecs.contains(requested) }.map { "." + $0.fileExtension })
            throw ExportError(.unsupportedCodec, "\(path): .\(fileExtension) cannot hold \(requested) audio (\(requested) goes in "
                              + "\(holders)); valid pairs: \(Self.pairs)")
        }
        return requested
    }

    /// The extension of the first format that holds `codec` (`m4a` for AAC); `wav` for nil.
    public static func defaultExtension(for codec: AudioCodec?) -> String {
        guard let codec else { return all[0].fileExtension }
        return all.first { $0.codecs.contains(codec) }!.fileExtension
    }

    /// Every format with its codecs: `.wav pcm; .flac flac; .m4a aac (default) or alac; …`.
    public static var pairs: String { all.map(\.description).joined(separator: "; ") }

    /// `.m4a aac (default) or alac`.
    public var description: String {
        let names = codecs.map(\.rawValue)
        return ".\(fileExtension) " + joined(codecs.count > 1 ? [names[0] + " (default)"] + names.dropFirst() : names)
    }
}

/// `a`, `a or b`, `a, b or c`.
private func joined(_ items: [String]) -> String {
    items.count > 1 ? items.dropLast().joined(separator: ", ") + " or " + items.last! : items.joined()
}
