import Foundation
import SlomoCore
import SlomoMedia
import SlomoTestSupport
import Testing
@testable import SlomoExport

/// AAC encoded in lanes (segments on two threads, joined packet to packet) against one encoder
/// over the same samples, both decoded by ffmpeg: the same length to the sample, and no block
/// worse at a seam than the single encoder's worst anywhere (a window that did not match its
/// neighbour's, or a packet a sample off, would leave a block of error as loud as the signal).
@Suite struct AudioEncoderLanesTests {
    static let sampleRate = 48000, seconds = 60
    /// 600 packets a segment (12.8 s, the shortest with the 256-packet pre-roll): 4 seams in 60 s.
    static let segmentFrames: Int64 = 600

    /// Tones and 10 ms bursts at every seam and half a packet to either side of it, where the
    /// encoders must choose short windows: the hardest place for a seam. (No noise: AAC codes
    /// noise bands as noise, which no waveform comparison can judge.)
    static func source() -> [[Float]] {
        let count = sampleRate * seconds
        let seam = Int(segmentFrames) * 1024
        var left = [Float](repeating: 0, count: count), right = left
        for index in 0..<count {
            let time = Double(index) / Double(sampleRate)
            let offset = index % seam
            let burst = [0, 512, seam - 512].contains { abs(offset - $0) < 480 } ? Float(0.4 * sin(2 * .pi * 3000 * time)) : 0
            left[index] = Float(0.25 * sin(2 * .pi * 440 * time)) + burst
            right[index] = Float(0.2 * sin(2 * .pi * 1300 * time)) - burst
        }
        return [left, right]
    }

    /// Encodes `channels` in blocks of 8192 frames with `encoder` into an .m4a at `path`;
    /// returns the number of packets.
    @discardableResult
    static func write(_ channels: [[Float]], with encoder: any AudioBlockEncoding, template: AudioBlockEncoder,
                      to path: String) throws -> Int {
        let muxer = try Muxer(path: path, overwrite: true)
        let stream = try muxer.addStream(for: template.encoder)
        muxer.setInitialPadding(template.encoder.initialPadding, stream: stream)
        try muxer.writeHeader()
        var packets: [Packet] = []
        var start = 0
        while start < channels[0].count {
            let end = min(channels[0].count, start + 8192)
            packets += try encoder.encode(channels.map { Array($0[start..<end]) })
            start = end
        }
        packets += try encoder.finish()
        for packet in packets { try muxer.write(packet, stream: stream) }
        try muxer.finish()
        return packets.count
    }

    /// Both channels decoded by ffmpeg, interleaved 32-bit float.
    static func decoded(_ path: String) throws -> [Float] {
        let (status, data, _) = try runCapturingFiles("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-f", "f32le", "-"])
        guard status == 0 else { throw CommandFailure(description: "ffmpeg could not decode \(path)") }
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    @Test func lanesJoinAsOneEncoderWould() throws {
        let channels = Self.source()
        let format = AudioFormat(sampleRate: Self.sampleRate, layout: ChannelLayout(channelCount: 2))
        let folder = try FixtureCache.shared.scratchFolder("aac-lanes")
        let single = folder.appendingPathComponent("single.m4a").path, laned = folder.appendingPathComponent("lanes.m4a").path
        let template = try AudioBlockEncoder(codec: .aac, depth: nil, format: format, globalHeader: true)
        try Self.write(channels, with: try AudioBlockEncoder(codec: .aac, depth: nil, format: format, globalHeader: true),
                       template: template, to: single)
        try Self.write(channels, with: AudioEncoderLanes(format: format, globalHeader: true, segmentFrames: Self.segmentFrames),
                       template: template, to: laned)

        let reference = zip(channels[0], channels[1]).flatMap { [$0, $1] }
        let one = try Self.decoded(single), lanes = try Self.decoded(laned)
        print("decoded: one encoder \(one.count), lanes \(lanes.count), source \(reference.count) samples")
        // Priming is skipped; the last packet's padding is not trimmed by this bare muxing.
        #expect(lanes.count == one.count && one.count >= reference.count && one.count < reference.count + 2 * 1024)

        func blockSNR(_ decoded: [Float], _ block: Int) -> Double {
            var signal = 0.0, error = 0.0
            for index in block * 2048..<min(reference.count, (block + 1) * 2048) {
                signal += Double(reference[index] * reference[index])
                error += Double((decoded[index] - reference[index]) * (decoded[index] - reference[index]))
            }
            return 10 * log10(signal / max(error, 1e-20))
        }
        let blocks = reference.count / 2048
        let seamBlocks = Set(stride(from: Int(Self.segmentFrames), to: blocks, by: Int(Self.segmentFrames)).flatMap { [$0 - 1, $0] })
        let singleBlocks = (0..<blocks).map { blockSNR(one, $0) }, laneBlocks = (0..<blocks).map { blockSNR(lanes, $0) }
        let singleWorst = singleBlocks.min()!, lanesWorst = laneBlocks.min()!
        let seamWorst = seamBlocks.map { laneBlocks[$0] }.min()!
        // FFmpeg's encoder drops a band now and then (a block near 8 dB on a steady tone); lanes
        // must not do it more often than one encoder does.
        let (singlePoor, lanesPoor) = (singleBlocks.filter { $0 < 20 }.count, laneBlocks.filter { $0 < 20 }.count)
        func overall(_ decoded: [Float]) -> Double {
            let signal = reference.reduce(0.0) { $0 + Double($1 * $1) }
            let error = zip(decoded.prefix(reference.count), reference).reduce(0.0) { $0 + Double(($1.0 - $1.1) * ($1.0 - $1.1)) }
            return 10 * log10(signal / error)
        }
        print("AAC lanes: \(seamBlocks.count / 2) seams; worst block at a seam \(String(format: "%.1f", seamWorst)) dB, "
              + "anywhere \(String(format: "%.1f", lanesWorst)) dB; one encoder's worst block \(String(format: "%.1f", singleWorst)) dB; "
              + "overall \(String(format: "%.2f", overall(lanes))) vs \(String(format: "%.2f", overall(one))) dB; "
              + "blocks under 20 dB: \(lanesPoor) vs \(singlePoor)")
        #expect(lanesPoor <= singlePoor)
        #expect(seamWorst >= singleWorst - 1)
        #expect(lanesWorst >= singleWorst - 1)
        #expect(overall(lanes) >= overall(one) - 0.5)
    }

    /// Segments come in rounds of one a lane, near 44 s each: the 1 GB retime's 216 s track in
    /// four of 54 s (five of 44 s left one lane a segment more than the other), 50 s in two of
    /// 25 s, 88 s in two of 44 s, 150 s in four of 37.5 s; never shorter than the pre-roll allows.
    @Test func segmentsAreBalancedBetweenLanes() {
        let sampleRate: Int64 = 48000
        #expect(AudioEncoderLanes.balancedSegmentFrames(forTrack: 216 * sampleRate) == 2532)
        #expect(AudioEncoderLanes.balancedSegmentFrames(forTrack: 50 * sampleRate) == 1172)
        #expect(AudioEncoderLanes.balancedSegmentFrames(forTrack: 88 * sampleRate) == 2063)
        #expect(AudioEncoderLanes.balancedSegmentFrames(forTrack: 150 * sampleRate) == 1758)
        #expect(AudioEncoderLanes.balancedSegmentFrames(forTrack: 1000) == AudioEncoderLanes.shortestSegmentFrames)
    }

    /// Shorter than a segment, empty, and ending just inside the next segment's pre-roll: the
    /// same packets (count) and samples as one encoder's, to 30 dB (two encodings of a tone).
    @Test(arguments: [0, 1000, 400 * 1024, 600 * 1024 + 100, 2 * 600 * 1024 - 1])
    func lengthsAreOneEncodersLengths(frames: Int) throws {
        let format = AudioFormat(sampleRate: Self.sampleRate, layout: ChannelLayout(channelCount: 2))
        let tone = (0..<frames).map { Float(0.3 * sin(2 * Double.pi * 440 * Double($0) / Double(Self.sampleRate))) }
        let folder = try FixtureCache.shared.scratchFolder("aac-lane-lengths")
        let single = folder.appendingPathComponent("single-\(frames).m4a").path, laned = folder.appendingPathComponent("lanes-\(frames).m4a").path
        let template = try AudioBlockEncoder(codec: .aac, depth: nil, format: format, globalHeader: true)
        let singlePackets = try Self.write([tone, tone], with: try AudioBlockEncoder(codec: .aac, depth: nil, format: format, globalHeader: true),
                                           template: template, to: single)
        let lanePackets = try Self.write([tone, tone], with: AudioEncoderLanes(format: format, globalHeader: true, segmentFrames: Self.segmentFrames),
                                         template: template, to: laned)
        #expect(lanePackets == singlePackets)
        guard frames > 0 else { return }    // nothing for ffmpeg to decode
        let one = try SyncProbe.samples(single), lanes = try SyncProbe.samples(laned)
        #expect(lanes.count == one.count)
        let error = zip(one, lanes).map { Double(($0 - $1) * ($0 - $1)) }.reduce(0, +) / Double(2 * frames)
        let power = tone.map { Double($0 * $0) }.reduce(0, +) / Double(frames)
        #expect(10 * log10(power / max(error, 1e-20)) > 30)
    }
}
