import Foundation
import SlomoTestSupport
import Testing

// In PlaybackSyncTests, which scripts/test runs alone: what the sound device plays is judged,
// and an underrun on a busy machine would cut the tone.
extension PlaybackSyncTests {
    /// `--pitch` in play: what the sound device played is three semitones up, within a cent.
    @Test func playsAtAnotherPitch() throws {
        let folder = try FixtureCache.shared.scratchFolder("play-pitch")
        defer { try? FileManager.default.removeItem(at: folder) }
        let probe = try PlaybackProbe([try PitchTests.tone(), "--pitch", "3", "--start", "2", "--no-video"], channels: 1, folder: folder)
        try #require(probe.audio.count >= probe.sampleRate * 7 / 4, "\(probe.audio.count) frames heard")
        let measured = PitchTests.measure(probe.audio[probe.sampleRate / 4 ..< probe.sampleRate * 7 / 4])
        let cents = 1200 * log2(measured.frequency / (440 * pow(2, 3.0 / 12)))
        print(String(format: "play --pitch 3: %.3f Hz (%+.3f cent), tone SNR %.1f dB", measured.frequency, cents, measured.snr))
        #expect(abs(cents) < 1)
    }
}
