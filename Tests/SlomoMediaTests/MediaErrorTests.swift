import Foundation
import SlomoCore
import SlomoMedia
import SlomoTestSupport
import Testing

/// What goes wrong outside FFmpeg (a caller's mistake, an option slomo finds unused, the file
/// under a rewrite) is a `MediaError`, with the text it had as an `FFmpegError` minus FFmpeg's
/// generic suffix; FFmpeg's own failures stay `FFmpegError`.
@Suite struct MediaErrorTests {
    @Test func blendingPicturesThatDoNotMatchIsTheCallersMistake() throws {
        let large = try Frame.video(width: 16, height: 16, format: .yuv420p, timeBase: Rational(1, 30))
        let small = try Frame.video(width: 8, height: 8, format: .yuv420p, timeBase: Rational(1, 30))
        let error = try #require(throws: MediaError.self) { try large.blended(with: small, weight: 0.5) }
        #expect(error.kind == .invalidArgument && error.path == nil)
        #expect(error.description == "blend 16x16 yuv420p with 8x8 yuv420p: the pictures differ in size or pixel format")
    }

    /// An existing output names the `overwrite` setting as data and in library words; the
    /// command line words it as `--overwrite` (PlotCommandTests, ExportCommandTests).
    @Test func anExistingOutputNamesTheOverwriteSetting() throws {
        let output = try FixtureCache.shared.scratchFolder("existing-output").appendingPathComponent("kept.mov").path
        try Data("keep".utf8).write(to: URL(fileURLWithPath: output))
        let error = try #require(throws: MediaError.self) { try OutputPath.checkWritable(output, overwrite: false) }
        #expect(error.kind == .outputExists && error.issue?.setting == .overwrite)
        #expect(error.description == "\(output): already exists (use overwrite to replace it)")
        #expect(error.text { $0 == .overwrite ? "--overwrite" : $0.name } == "\(output): already exists (use --overwrite to replace it)")
        #expect(throws: MediaError.self) { try Muxer(path: output) }
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "keep")
    }

    @Test func anOptionTheEncoderDoesNotHaveIsAnUnknownOption() throws {
        let format = AudioFormat(sampleRate: 48000, layout: .mono, sampleFormat: .int16)
        let settings = AudioEncoderSettings(codec: "pcm_s16le", format: format, options: ["no_such_option": "1"])
        let error = try #require(throws: MediaError.self) { try Encoder(audio: settings, globalHeader: false) }
        #expect(error.kind == .unknownOption)
        #expect(error.description == "encoder pcm_s16le has no option 'no_such_option'")
    }

    @Test func anOptionTheMuxerDoesNotHaveNamesTheFile() throws {
        let output = try FixtureCache.shared.scratchFolder("muxer-option").appendingPathComponent("out.mov").path
        let muxer = try Muxer(path: output)
        try muxer.addStream(copying: 0, of: try Demuxer(path: try Fixture.videoOnly.path))
        let error = try #require(throws: MediaError.self) { try muxer.writeHeader(options: ["no_such_option": "1"]) }
        #expect(error.kind == .unknownOption)
        #expect(error.description == "\(output): the muxer has no option 'no_such_option'")
    }

    /// The header rewrite of a recording: tags that do not fit, a file that has gone, a file
    /// that is not a movie.
    @Test func rewritingTagsReportsTheFileItRewrites() throws {
        let output = try FixtureCache.shared.scratchFolder("rewrite-tags").appendingPathComponent("recording.mov").path
        var options = Muxer.fragmentedMovieOptions
        options["movflags", default: ""] += "+use_metadata_tags"
        let muxer = try Muxer(recordingTo: output)
        defer { muxer.abandon() }
        try muxer.addStream(copying: 0, of: try Demuxer(path: try Fixture.videoOnly.path))
        try muxer.writeHeader(options: options)
        try muxer.reserveHeaderSpace(1024)
        try muxer.rewriteHeaderMetadata(["title": "fits"], options: options)

        let tooLong = try #require(throws: MediaError.self) {
            try muxer.rewriteHeaderMetadata(["comment": String(repeating: "x", count: 4096)], options: options)
        }
        #expect(tooLong.kind == .invalidArgument && tooLong.path == output)
        #expect(tooLong.detail.hasSuffix("bytes more than the header has room for"))

        try FileManager.default.removeItem(atPath: output)
        let gone = try #require(throws: MediaError.self) { try muxer.rewriteHeaderMetadata(["title": "gone"], options: options) }
        #expect(gone.kind == .writeFailed)
        #expect(gone.description == "\(output): open to write tags: No such file or directory")

        _ = FileManager.default.createFile(atPath: output, contents: Data("not a movie".utf8))
        let notAMovie = try #require(throws: MediaError.self) {
            try muxer.rewriteHeaderMetadata(["title": "replaced"], options: options)
        }
        #expect(notAMovie.kind == .damaged)
        #expect(notAMovie.description == "\(output): write tags: no moov at the start of the file")
    }

    @Test func anEncoderFFmpegDoesNotHaveIsStillAnFFmpegError() {
        let format = AudioFormat(sampleRate: 48000, layout: .mono, sampleFormat: .int16)
        var caught = ""
        do {
            _ = try Encoder(audio: AudioEncoderSettings(codec: "no_such_encoder", format: format), globalHeader: false)
        } catch FFmpegError.encoderNotFound {
            caught = "encoderNotFound"
        } catch {
            caught = "other: \(error)"
        }
        #expect(caught == "encoderNotFound")
    }
}
