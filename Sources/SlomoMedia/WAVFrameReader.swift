import CFFmpeg
import Glibc
import SlomoCore

/// The samples of a `WAVFile` as the frames FFmpeg's PCM decoder makes of them: channels
/// interleaved, 24-bit samples in the high bits of 32-bit ones, unsigned 8-bit kept as they
/// are, timestamps counted in samples from the first; of a file cut short, every whole frame
/// it holds (FFmpeg drops the last, cut packet: up to 4 KB more). Not thread-safe.
final class WAVFrameReader: AudioFrameReading {
    private let file: WAVFile
    /// The channels the frames say they hold (FFmpeg's layout of the header).
    private let layout: ChannelLayout
    private let descriptor: Int32
    /// The frame the next read starts at.
    private var position: Int64 = 0
    /// Frames read at a time.
    static let framesPerRead = 8192

    init(_ file: WAVFile) throws(MediaError) {
        self.file = file
        layout = file.channelLayout
        do throws(SystemError) {
            descriptor = try SystemError.check("open") { open(file.path, O_RDONLY | O_CLOEXEC) }
        } catch {
            throw MediaError(.unreadable, path: file.path, detail: "cannot open: \(error.message)")
        }
    }

    deinit { close(descriptor) }

    var damage: Damage? { nil }

    func seek(to time: MediaTime) throws {
        let frame = (try? time.ticks(in: Rational(1, Int64(file.sampleRate)), rounding: .down)) ?? 0
        position = min(max(frame, 0), file.storedFrameCount)
    }

    func next() throws -> Frame? {
        let count = Int(min(Int64(Self.framesPerRead), file.storedFrameCount - position))
        guard count > 0 else { return nil }
        let frame = Frame(timeBase: Rational(1, Int64(file.sampleRate)))
        let raw = frame.pointer
        raw.pointee.format = file.coding.decodedFormat.raw.rawValue
        raw.pointee.sample_rate = Int32(file.sampleRate)
        raw.pointee.nb_samples = Int32(count)
        layout.withAVLayout { _ = av_channel_layout_copy(&raw.pointee.ch_layout, $0) }
        try check(av_frame_get_buffer(raw, 0), "allocate audio frame")
        let bytes = count * file.blockAlign
        let target = frame.planeData(0)!
        if file.coding == .s24 {
            // Read behind the end of the buffer, then widen in place from the first sample on:
            // sample k's 3 bytes sit at 3k + shift, at or after where its 4 bytes go.
            let shift = bytes / 3
            try read(bytes, into: target + shift)
            for k in 0..<(count * file.channelCount) {
                let source = target + shift + 3 * k
                let value = UInt32(source[0]) << 8 | UInt32(source[1]) << 16 | UInt32(source[2]) << 24
                (UnsafeMutableRawPointer(target) + 4 * k).storeBytes(of: value, as: UInt32.self)
            }
        } else {
            try read(bytes, into: target)
        }
        frame.pts = position
        position += Int64(count)
        return frame
    }

    /// Reads `count` bytes of samples from the current position into `target`.
    private func read(_ count: Int, into target: UnsafeMutablePointer<UInt8>) throws(MediaError) {
        var done = 0
        let offset = file.dataOffset + position * Int64(file.blockAlign)
        while done < count {
            let got: Int
            do throws(SystemError) {
                got = try SystemError.check("pread") { pread(descriptor, target + done, count - done, off_t(offset + Int64(done))) }
            } catch {
                throw MediaError(.damaged, path: file.path, detail: "cannot read samples: \(error.message)")
            }
            guard got > 0 else {
                throw MediaError(.damaged, path: file.path, detail: "cannot read samples: the file ended early (it changed while being read)")
            }
            done += got
        }
    }
}
