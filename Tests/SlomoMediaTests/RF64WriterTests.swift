import Foundation
@testable import SlomoMedia
import SlomoCore
import SlomoTestSupport
import Testing

/// A WAV output beyond 4 GiB of samples is an RF64 file (EBU Tech 3306) laid out as FFmpeg's
/// `-rf64 always`, which FFmpeg reads back sample for sample. Written here at a small size,
/// with the writer's threshold lowered: the layout does not depend on the size.
@Suite struct RF64WriterTests {
    static let frames = 4801, sampleRate = 48000

    /// `frames` of a two-channel sine written by `WAVWriter` at `depth` to a new file, as an RF64
    /// one when `rf64`.
    static func write(depth: SampleDepth, rf64: Bool) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rf64-\(UUID().uuidString).wav").path
        let writer = try WAVWriter(path: path, depth: depth, sampleRate: sampleRate, layout: .stereo, frames: frames, overwrite: false,
                                   largestPlainData: rf64 ? 0 : WAVWriter.largestData)
        #expect(writer.isRF64 == rf64)
        let channels = (0..<2).map { c in (0..<frames).map { Float(0.4 * sin(Double($0) * 0.0575 + Double(c))) } }
        let format = AudioFormat(sampleRate: sampleRate, layout: .stereo)
        let convert = try Resampler(from: format, to: AudioFormat(sampleRate: sampleRate, layout: .stereo, sampleFormat: writer.sampleFormat))
        try writer.write(try convert.convert(try Frame(channels: channels, count: frames, layout: .stereo, sampleRate: sampleRate, pts: 0)))
        let tail = try convert.convert(nil)
        if tail.sampleCount > 0 { try writer.write(tail) }
        try writer.finish()
        return path
    }

    /// The chunks of a RIFF or RF64 file: name, the 32-bit size field, and where the body starts.
    static func chunks(_ bytes: Data) -> [(name: String, size: UInt32, body: Int)] {
        var found: [(String, UInt32, Int)] = [], at = 12
        while at + 8 <= bytes.count {
            let name = String(decoding: bytes[at..<(at + 4)], as: UTF8.self), size = bytes.littleEndian(UInt32.self, at: at + 4)
            found.append((name, size, at + 8))
            if name == "data" { break }
            at += 8 + Int(size) + Int(size & 1)
        }
        return found
    }

    /// ds64's RIFF size, data size and sample count.
    static func ds64(_ bytes: Data) throws -> (riff: UInt64, data: UInt64, samples: UInt64) {
        let chunk = try #require(chunks(bytes).first { $0.name == "ds64" })
        #expect(chunk.size == 28 && bytes.littleEndian(UInt32.self, at: chunk.body + 24) == 0)
        return (bytes.littleEndian(UInt64.self, at: chunk.body), bytes.littleEndian(UInt64.self, at: chunk.body + 8),
                bytes.littleEndian(UInt64.self, at: chunk.body + 16))
    }

    @Test(arguments: [SampleDepth.s16, .s24, .f32])
    func beyondFourGiBIsRF64(depth: SampleDepth) throws {
        let plain = try Self.write(depth: depth, rf64: false), rf64 = try Self.write(depth: depth, rf64: true)
        defer { for path in [plain, rf64] { try? FileManager.default.removeItem(atPath: path) } }
        let (plainBytes, bytes) = (try Data(contentsOf: URL(fileURLWithPath: plain)), try Data(contentsOf: URL(fileURLWithPath: rf64)))
        let plainData = try #require(Self.chunks(plainBytes).first { $0.name == "data" }).size

        // The header: RF64 with all-ones 32-bit sizes, and the real ones in ds64.
        #expect(Array(bytes[0..<4]) == Array("RF64".utf8) && bytes.littleEndian(UInt32.self, at: 4) == .max && Array(bytes[8..<12]) == Array("WAVE".utf8))
        #expect(Self.chunks(bytes).first?.name == "ds64")
        let sizes = try Self.ds64(bytes)
        #expect(sizes.riff == UInt64(bytes.count - 8) && sizes.data == UInt64(plainData) && sizes.samples == UInt64(Self.frames))
        #expect(Self.chunks(bytes).first { $0.name == "data" }?.size == .max)
        if depth == .f32 { #expect(Self.chunks(bytes).first { $0.name == "fact" }?.size == 4) }
        #expect(Self.chunks(bytes).filter { $0.name == "fact" }.allSatisfy { bytes.littleEndian(UInt32.self, at: $0.body) == .max })
        #expect(Array(bytes.suffix(Int(plainData))) == Array(plainBytes.suffix(Int(plainData))), "the samples differ from the plain WAV's")

        // FFmpeg's own RF64 of the same samples says the same sizes, and FFmpeg reads ours as it
        // reads the plain file: same stream, same duration, same decoded samples.
        let reference = rf64 + ".ffmpeg.wav"
        defer { try? FileManager.default.removeItem(atPath: reference) }
        try runChecked("ffmpeg", ["-v", "error", "-i", plain, "-c", "copy", "-rf64", "always", "-fflags", "+bitexact", reference])
        let theirs = try Self.ds64(try Data(contentsOf: URL(fileURLWithPath: reference)))
        #expect(theirs.data == sizes.data && theirs.samples == sizes.samples)
        func probe(_ path: String) throws -> String {
            try runChecked("ffprobe", ["-v", "error", "-show_entries", "format=format_name,duration:stream=codec_name,sample_rate,channels,bits_per_sample",
                                       "-of", "compact", path]).standardOutput
        }
        func samples(_ path: String) throws -> String { try runChecked("ffmpeg", ["-v", "error", "-i", path, "-f", "md5", "-"]).standardOutput }
        #expect(try probe(rf64) == probe(plain))
        #expect(try samples(rf64) == samples(plain))
    }
}
