import Glibc
import SlomoCore

/// Writes a RIFF WAVE file of PCM or float samples without FFmpeg, laid out as FFmpeg's muxer
/// lays it out: a plain `fmt ` header for 16-bit mono or stereo at up to 48 kHz, an extensible
/// one (with the speaker mask and the sample format's GUID) otherwise; `fact` for floats;
/// `LIST`/`INFO` naming slomo as the encoder; then `data`, whose size and the file's are filled
/// in by `finish()`. Samples beyond what a WAV's 32-bit sizes count (4 GiB: 3 h 43 min of
/// 16-bit stereo at 48 kHz, 19 min of 8 channels of 32-bit at 96 kHz) make it an RF64 file (EBU
/// Tech 3306), laid out as FFmpeg's `-rf64 always` lays it out: `RF64` and a `ds64` chunk
/// with the 64-bit sizes, the 32-bit ones all ones. The file is a `PartialFile` until
/// `finish()`, so it appears whole or not at all. One thread at a time.
public final class WAVWriter {
    /// The file being written.
    public let path: String
    /// The sample format `write` takes: channels interleaved, 24-bit samples in the high bits
    /// of 32-bit ones (whose low byte is dropped).
    public let sampleFormat: SampleFormat
    private let depth: SampleDepth
    /// Bytes a sample of one channel takes in the file (3 for 24-bit).
    private let bytesPerSample: Int
    private let channelCount: Int
    private let partial: PartialFile
    private let descriptor: Int32
    /// Bytes before the samples.
    private var headerSize = 0
    /// Whether the sizes are 64-bit ones in a `ds64` chunk.
    let isRF64: Bool
    /// Where the sizes `finish()` fills in are: the data chunk's, the sample count of `fact`
    /// (plain WAV), and the `ds64` chunk's body (RF64).
    private var dataSizeOffset = 0, factOffset: Int?, ds64Offset = 0
    /// A block's samples packed to 3 bytes each, for a 24-bit file (kept from block to block).
    private var packed: [UInt8] = []
    private var dataBytes: Int64 = 0

    /// Bytes of samples a WAV's 32-bit sizes can count (the data chunk's, and the RIFF size
    /// around it and the header).
    static let largestData = Int64(UInt32.max) - 4096

    /// Starts `path` (replaced at `finish()` only with `overwrite`) for `frames` frames of
    /// `depth` samples at `sampleRate` in `layout`: an RF64 file when they hold more bytes than
    /// `largestPlainData` (a WAV's 32-bit sizes; less only to test the RF64 layout on small files).
    public convenience init(path: String, depth: SampleDepth, sampleRate: Int, layout: ChannelLayout, frames: Int,
                            overwrite: Bool) throws(MediaError) {
        try self.init(path: path, depth: depth, sampleRate: sampleRate, layout: layout, frames: frames, overwrite: overwrite,
                      largestPlainData: Self.largestData)
    }

    init(path: String, depth: SampleDepth, sampleRate: Int, layout: ChannelLayout, frames: Int, overwrite: Bool,
         largestPlainData: Int64) throws(MediaError) {
        bytesPerSample = depth == .s24 ? 3 : depth == .s16 ? 2 : 4
        isRF64 = Int64(frames) * Int64(bytesPerSample * layout.channelCount) > largestPlainData
        self.path = path
        self.depth = depth
        channelCount = layout.channelCount
        sampleFormat = depth == .s16 ? .int16 : depth == .f32 ? .float : .int32
        partial = try PartialFile(target: path, overwrite: overwrite)
        do throws(SystemError) {
            let writePath = partial.writePath
            descriptor = try SystemError.check("open") { open(writePath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        } catch {
            throw MediaError(.writeFailed, path: path, detail: "cannot open: \(error.message)")
        }
        let header = headerBytes(sampleRate: sampleRate, layout: layout)
        headerSize = header.count
        try writeAll(header)
    }

    deinit { close(descriptor) }

    /// Appends the samples of `frame`, which is in `sampleFormat` with this file's channels:
    /// written at once, from the frame itself (copied into a buffer that grows to the size of
    /// a whole output, its pages were a short stretch's largest cost after the transforms).
    public func write(_ frame: Frame) throws(MediaError) {
        precondition(frame.sampleFormat == sampleFormat && frame.channelCount == channelCount, "a frame in another format")
        let samples = frame.sampleCount * channelCount
        let source = UnsafeRawPointer(frame.planeData(0)!)
        if depth == .s24 {
            packed.removeAll(keepingCapacity: true)
            packed.reserveCapacity(3 * samples)
            for k in 0..<samples {
                let value = source.loadUnaligned(fromByteOffset: 4 * k, as: UInt32.self)
                packed.append(UInt8(truncatingIfNeeded: value >> 8))
                packed.append(UInt8(truncatingIfNeeded: value >> 16))
                packed.append(UInt8(truncatingIfNeeded: value >> 24))
            }
            try writeAll(packed)
        } else {
            try writeAll(UnsafeRawBufferPointer(start: source, count: samples * bytesPerSample))
        }
        dataBytes += Int64(samples * bytesPerSample)
    }

    /// Fills in the sizes and gives the file its name.
    public func finish() throws(MediaError) {
        if dataBytes & 1 == 1 { try writeAll([0]) }
        let fileSize = Int64(headerSize) + dataBytes + (dataBytes & 1)
        let frames = dataBytes / Int64(bytesPerSample * channelCount)
        if isRF64 {
            try patch(Self.littleEndian(UInt64(fileSize - 8)) + Self.littleEndian(UInt64(dataBytes)) + Self.littleEndian(UInt64(frames)),
                      at: ds64Offset)
        } else {
            guard dataBytes <= Self.largestData else {
                throw MediaError(.writeFailed, path: path, detail: "more samples were written than the file was started for "
                                 + "(\(dataBytes >> 20) MiB, beyond a WAV's 4 GiB)")
            }
            try patch(Self.littleEndian(UInt32(fileSize - 8)), at: 4)
            try patch(Self.littleEndian(UInt32(dataBytes)), at: dataSizeOffset)
            if let factOffset { try patch(Self.littleEndian(UInt32(frames)), at: factOffset) }
        }
        try partial.publish()
    }

    /// Drops the unfinished file.
    public func abandon() { partial.discard() }

    private func writeAll(_ bytes: [UInt8]) throws(MediaError) {
        try bytes.withUnsafeBytes { raw in Result { () throws(MediaError) in try writeAll(raw) } }.get()
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws(MediaError) {
        var done = 0
        while done < bytes.count {
            done += try call("write") { Glibc.write(descriptor, bytes.baseAddress! + done, bytes.count - done) }
        }
    }

    private func patch(_ bytes: [UInt8], at offset: Int) throws(MediaError) {
        _ = try call("write the sizes") { pwrite(descriptor, bytes, bytes.count, off_t(offset)) }
    }

    private func call(_ operation: String, _ body: () -> Int) throws(MediaError) -> Int {
        do throws(SystemError) { return try SystemError.check(operation, body) } catch {
            throw MediaError(.writeFailed, path: path, detail: "cannot \(operation): \(error.message)")
        }
    }

    /// The chunks before the samples; notes where the sizes to fill in are.
    private func headerBytes(sampleRate: Int, layout: ChannelLayout) -> [UInt8] {
        let formatTag: UInt16 = depth == .f32 ? 3 : 1
        let bits = UInt16(8 * bytesPerSample)
        let blockAlign = UInt16(bytesPerSample * channelCount)
        let mask = layout.speakerMask
        let extensible = !(layout == .mono || layout == .stereo) || sampleRate > 48000 || bits > 16
        var format: [UInt8] = Self.littleEndian(extensible ? 0xFFFE : formatTag) + Self.littleEndian(UInt16(channelCount))
            + Self.littleEndian(UInt32(sampleRate)) + Self.littleEndian(UInt32(sampleRate) * UInt32(blockAlign))
            + Self.littleEndian(blockAlign) + Self.littleEndian(bits)
        if extensible {
            format += Self.littleEndian(UInt16(22)) + Self.littleEndian(bits) + Self.littleEndian(UInt32(truncatingIfNeeded: mask))
                + Self.littleEndian(UInt32(formatTag)) + [0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
        }
        // RF64: sizes all ones where a plain WAV has them, the real ones in `ds64`.
        let unknownSize: [UInt8] = isRF64 ? [0xFF, 0xFF, 0xFF, 0xFF] : [0, 0, 0, 0]
        var bytes = Array((isRF64 ? "RF64" : "RIFF").utf8) + unknownSize + Array("WAVE".utf8)
        if isRF64 {
            ds64Offset = bytes.count + 8
            // RIFF size, data size and sample count (64-bit each), and no table of other sizes.
            bytes += Self.chunk("ds64", [UInt8](repeating: 0, count: 28))
        }
        bytes += Self.chunk("fmt ", format)
        if formatTag != 1 {
            factOffset = isRF64 ? nil : bytes.count + 8
            bytes += Self.chunk("fact", unknownSize)
        }
        var encoder = Array("slomo \(SlomoVersion.current)".utf8) + [0]
        if encoder.count & 1 == 1 { encoder.append(0) }
        bytes += Self.chunk("LIST", Array("INFO".utf8) + Self.chunk("ISFT", encoder))
        dataSizeOffset = bytes.count + 4
        return bytes + Array("data".utf8) + unknownSize
    }

    private static func chunk(_ name: String, _ body: [UInt8]) -> [UInt8] {
        Array(name.utf8) + littleEndian(UInt32(body.count)) + body
    }

    private static func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        (0..<MemoryLayout<T>.size).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
