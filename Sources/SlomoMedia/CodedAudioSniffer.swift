import Foundation

/// Whether the start of a WAV's integer "PCM" is really coded audio that FFmpeg would find by
/// looking at it: in any integer PCM, S/PDIF bursts (AC-3 or DTS wrapped for a digital link,
/// which FFmpeg looks for in the first 64 KB); in 16-bit PCM, which FFmpeg also probes (the
/// first 16 KB, as `Demuxer` lets it), MPEG audio (MP1, MP2, MP3) or ADTS AAC frames followed
/// by another frame where the first says it ends, AC-3 or E-AC-3 sync words a frame apart, or
/// a DTS sync word anywhere. Each test is looser than FFmpeg's (which wants several frames),
/// so a file FFmpeg takes for coded audio is never read as PCM; a PCM file that happens to
/// match is only read by FFmpeg instead.
enum CodedAudioSniffer {
    /// Bytes of the data FFmpeg looks at for S/PDIF bursts, and probes for other codecs: four
    /// of the WAV demuxer's 4096-byte packets.
    static let spdifBytes = 1 << 16, probedBytes = 16384

    /// True when `start` (the first `spdifBytes` of the data, or all of it) looks like coded
    /// audio FFmpeg would find: S/PDIF bursts, and in `sixteenBit` samples the other codecs.
    static func findsCodedAudio(in start: Data, sixteenBit: Bool) -> Bool {
        start.withUnsafeBytes { raw in
            holdsSPDIFBursts(raw) || sixteenBit && looksCoded(UnsafeRawBufferPointer(rebasing: raw.prefix(probedBytes)))
        }
    }

    /// True when the samples hold the S/PDIF preamble (Pa Pb = F872 4E1F, as little-endian
    /// 16-bit words).
    private static func holdsSPDIFBursts(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var k = 0
        while k + 4 <= bytes.count {
            if bytes[k] == 0x72, bytes[k + 1] == 0xF8, bytes[k + 2] == 0x1F, bytes[k + 3] == 0x4E { return true }
            k += 2
        }
        return false
    }

    /// True when `bytes` (the start of 16-bit data) looks like MPEG audio, AAC, AC-3 or DTS.
    private static func looksCoded(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let b = bytes.bindMemory(to: UInt8.self)
        for k in 0..<b.count {
            switch b[k] {
            case 0xFF where k + 1 < b.count && b[k + 1] & 0xE0 == 0xE0:
                if let length = mpegAudioFrameLength(b, at: k) ?? adtsFrameLength(b, at: k),
                   mpegAudioFrameLength(b, at: k + length) ?? adtsFrameLength(b, at: k + length) != nil { return true }
            case 0x0B where k + 1 < b.count && b[k + 1] == 0x77:
                if let length = ac3FrameLength(b, at: k), k + length + 1 < b.count, b[k + length] == 0x0B, b[k + length + 1] == 0x77 {
                    return true
                }
            default:
                break
            }
            // DTS core sync, 16-bit big- and little-endian, 14-bit big- and little-endian.
            guard k + 3 < b.count else { continue }
            switch UInt32(b[k]) << 24 | UInt32(b[k + 1]) << 16 | UInt32(b[k + 2]) << 8 | UInt32(b[k + 3]) {
            case 0x7FFE_8001, 0xFE7F_0180, 0x1FFF_E800, 0xFF1F_00E8: return true
            default: break
            }
        }
        return false
    }

    /// The length of the MPEG audio frame whose header is at `k`, nil when there is no valid one.
    private static func mpegAudioFrameLength(_ b: UnsafeBufferPointer<UInt8>, at k: Int) -> Int? {
        guard k + 3 < b.count, b[k] == 0xFF, b[k + 1] & 0xE0 == 0xE0 else { return nil }
        let version = Int(b[k + 1] >> 3) & 3, layer = Int(b[k + 1] >> 1) & 3
        let bitrateIndex = Int(b[k + 2] >> 4), rateIndex = Int(b[k + 2] >> 2) & 3, padding = Int(b[k + 2] >> 1) & 1
        guard version != 1, layer != 0, bitrateIndex != 0, bitrateIndex != 15, rateIndex != 3 else { return nil }
        let mpeg1 = version == 3
        let rates = [44100, 48000, 32000][rateIndex] >> (mpeg1 ? 0 : version == 2 ? 1 : 2)
        let kbps: [Int] = switch (mpeg1, layer) {
        case (true, 3): [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448]
        case (true, 2): [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384]
        case (true, _): [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
        case (false, 3): [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256]
        case (false, _): [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
        }
        let bitrate = kbps[bitrateIndex] * 1000
        let length = switch layer {
        case 3: (12 * bitrate / rates + padding) * 4
        case 2: 144 * bitrate / rates + padding
        default: (mpeg1 ? 144 : 72) * bitrate / rates + padding
        }
        return length > 4 ? length : nil
    }

    /// The length of the ADTS (AAC) frame whose header is at `k`, nil when there is no valid one.
    private static func adtsFrameLength(_ b: UnsafeBufferPointer<UInt8>, at k: Int) -> Int? {
        guard k + 6 < b.count, b[k] == 0xFF, b[k + 1] & 0xF6 == 0xF0, (b[k + 2] >> 2) & 0xF < 13 else { return nil }
        let length = (Int(b[k + 3]) & 3) << 11 | Int(b[k + 4]) << 3 | Int(b[k + 5]) >> 5
        return length >= 7 ? length : nil
    }

    /// The length of the AC-3 or E-AC-3 frame whose sync word is at `k`, nil when it has none.
    private static func ac3FrameLength(_ b: UnsafeBufferPointer<UInt8>, at k: Int) -> Int? {
        guard k + 5 < b.count else { return nil }
        let bitstreamID = Int(b[k + 5] >> 3)
        if bitstreamID > 10 {    // E-AC-3: the frame's size in 16-bit words, less one
            let words = (Int(b[k + 2]) & 7) << 8 | Int(b[k + 3])
            return 2 * (words + 1)
        }
        let rateCode = Int(b[k + 4] >> 6), sizeCode = Int(b[k + 4] & 0x3F)
        guard rateCode < 3, sizeCode < 38 else { return nil }
        let kbps = [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384, 448, 512, 576, 640][sizeCode / 2]
        switch rateCode {
        case 0: return 4 * kbps    // 48 kHz: words = 2 × kbps
        case 1: return 2 * (kbps * 320 / 147 + (sizeCode & 1))
        default: return 6 * kbps   // 32 kHz
        }
    }
}
