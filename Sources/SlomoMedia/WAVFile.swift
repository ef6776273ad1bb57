import Foundation

/// A RIFF WAVE file of plain PCM or float samples, read without FFmpeg: loading FFmpeg's
/// libraries and probing a file costs a short `slomo stretch` 45 ms of its 100, and a WAV needs
/// neither. `init?(path:)` takes only what it reads exactly as FFmpeg's demuxer does (see
/// `MediaFile(wav:)`) and returns nil for everything else, which FFmpeg then reads: RIFX, RF64,
/// compressed codecs, extensible headers whose valid bits or speaker mask disagree with the
/// samples, metadata FFmpeg reads from `bext` or ID3 chunks, a data chunk that declares a
/// partial frame, and integer data that FFmpeg would find to be coded audio by
/// looking (S/PDIF bursts; in 16-bit data, MP3, AAC, AC-3 or DTS: `CodedAudioSniffer`). A
/// data chunk that the file cuts short is read as far as it goes, and said (`MediaFile(wav:)`
/// reports it as damage, which FFmpeg does not).
struct WAVFile: Sendable {
    /// How the samples are coded, by the name of FFmpeg's codec for them.
    enum Coding: String, Sendable {
        case u8 = "pcm_u8", s16 = "pcm_s16le", s24 = "pcm_s24le", s32 = "pcm_s32le", f32 = "pcm_f32le", f64 = "pcm_f64le"

        /// Bytes one sample of one channel takes in the file.
        var bytes: Int {
            switch self {
            case .u8: 1
            case .s16: 2
            case .s24: 3
            case .s32, .f32: 4
            case .f64: 8
            }
        }

        /// The coding of `bits`-bit samples with format tag `tag` (1: integers, 3: floats).
        init?(tag: UInt32, bits: Int) {
            switch (tag, bits) {
            case (1, 8): self = .u8
            case (1, 16): self = .s16
            case (1, 24): self = .s24
            case (1, 32): self = .s32
            case (3, 32): self = .f32
            case (3, 64): self = .f64
            default: return nil
            }
        }
    }

    let path: String
    let coding: Coding
    /// The format tag of the samples (1 integer PCM, 3 float), also under an extensible header.
    let tag: UInt32
    let channelCount: Int
    let sampleRate: Int
    /// The speakers of an extensible header (`dwChannelMask`), nil for a plain header, whose
    /// channels are only counted.
    let channelMask: UInt64?
    /// Where the samples start in the file, how many frames (one sample per channel) the data
    /// chunk declares, and how many whole frames the file holds (fewer when it is cut short).
    let dataOffset: Int64
    let frameCount: Int64
    let storedFrameCount: Int64
    let fileSize: Int64
    /// The `LIST`/`INFO` tags under FFmpeg's names (`INAM` is `title`, `ISFT` `encoder`, …).
    let tags: [String: String]

    /// Bytes of one frame.
    var blockAlign: Int { coding.bytes * channelCount }

    /// Chunks from which FFmpeg reads metadata or streams that this reader does not.
    private static let chunksLeftToFFmpeg: Set<String> = ["bext", "id3 ", "ID3 ", "SMV0", "XMA2", "ds64"]
    /// FFmpeg's names for the RIFF INFO tags it knows (`ff_riff_info_conv`); others keep theirs.
    private static let infoNames = ["IART": "artist", "ICMT": "comment", "ICOP": "copyright", "ICRD": "date",
                                    "IGNR": "genre", "ILNG": "language", "INAM": "title", "IPRD": "album",
                                    "IPRT": "track", "ITRK": "track", "ISFT": "encoder", "ISMP": "timecode",
                                    "ITCH": "encoded_by"]
    /// The last 12 bytes of the sub-format GUID of every PCM and float extensible header.
    private static let subFormatBase: [UInt8] = [0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]

    /// The file at `path` when it is a WAV this reader takes whole; nil otherwise (not a
    /// regular file, which reading would consume, not a WAV, unreadable, or one FFmpeg should
    /// read: see the type's description).
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
              let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), size >= 12, (try? handle.seek(toOffset: 0)) != nil,
              let head = try? handle.read(upToCount: 12), head.count == 12,
              head.prefix(4) == Data("RIFF".utf8), head.suffix(4) == Data("WAVE".utf8) else { return nil }
        var format: (tag: UInt32, channels: Int, rate: Int, byteRate: Int, blockAlign: Int, bits: Int, mask: UInt64?)?
        var data: (offset: Int64, size: Int64)?
        var tags: [String: String] = [:]
        var position: Int64 = 12
        while Int64(size) - position >= 8 {
            guard (try? handle.seek(toOffset: UInt64(position))) != nil,
                  let header = try? handle.read(upToCount: 8), header.count == 8 else { return nil }
            let name = String(decoding: header.prefix(4), as: UTF8.self)
            let length = Int64(header.littleEndian(UInt32.self, at: 4))
            let body = position + 8
            guard name == "data" || body + length <= Int64(size), !Self.chunksLeftToFFmpeg.contains(name) else { return nil }
            switch name {
            case "fmt ":
                guard format == nil, let bytes = try? handle.read(upToCount: Int(length)), bytes.count == Int(length),
                      let parsed = Self.format(of: bytes) else { return nil }
                format = parsed
            case "data":
                guard data == nil, length > 0, length != 0xFFFF_FFFF else { return nil }
                data = (body, length)
            case "LIST":
                guard length >= 4, let bytes = try? handle.read(upToCount: Int(length)), bytes.count == Int(length) else { return nil }
                if bytes.prefix(4) == Data("INFO".utf8) {
                    guard let info = Self.info(in: bytes.dropFirst(4)) else { return nil }
                    for (key, value) in info {
                        guard tags.updateValue(value, forKey: key) == nil else { return nil }
                    }
                }
            default:
                break
            }
            position = body + length + (length & 1)
        }
        guard let format, let data, let coding = Coding(tag: format.tag, bits: format.bits),
              format.channels > 0, format.rate > 0,
              format.blockAlign == coding.bytes * format.channels, format.byteRate == format.blockAlign * format.rate,
              data.size % Int64(format.blockAlign) == 0 else { return nil }
        if format.tag == 1 {
            // Integer PCM, which FFmpeg looks at for coded audio labelled as PCM.
            guard (try? handle.seek(toOffset: UInt64(data.offset))) != nil,
                  let start = try? handle.read(upToCount: Int(min(data.size, Int64(CodedAudioSniffer.spdifBytes)))),
                  !CodedAudioSniffer.findsCodedAudio(in: start, sixteenBit: coding == .s16) else { return nil }
        }
        self.path = path
        self.coding = coding
        self.tag = format.tag
        self.channelCount = format.channels
        self.sampleRate = format.rate
        self.channelMask = format.mask
        self.dataOffset = data.offset
        self.frameCount = data.size / Int64(format.blockAlign)
        self.storedFrameCount = min(data.size, Int64(size) - data.offset) / Int64(format.blockAlign)
        self.fileSize = Int64(size)
        self.tags = tags
    }

    /// The fields of a `fmt ` chunk, nil unless it is integer or float PCM whose extensible
    /// header (if any) agrees with itself: valid bits equal to the sample size, one speaker in
    /// the mask per channel.
    private static func format(of bytes: Data) -> (tag: UInt32, channels: Int, rate: Int, byteRate: Int, blockAlign: Int, bits: Int, mask: UInt64?)? {
        guard bytes.count >= 16 else { return nil }
        var tag = UInt32(bytes.littleEndian(UInt16.self, at: 0))
        let channels = Int(bytes.littleEndian(UInt16.self, at: 2))
        let rate = Int(bytes.littleEndian(UInt32.self, at: 4))
        let byteRate = Int(bytes.littleEndian(UInt32.self, at: 8))
        let blockAlign = Int(bytes.littleEndian(UInt16.self, at: 12))
        let bits = Int(bytes.littleEndian(UInt16.self, at: 14))
        var mask: UInt64?
        if tag == 0xFFFE {
            guard bytes.count >= 40, bytes.littleEndian(UInt16.self, at: 16) >= 22,
                  Int(bytes.littleEndian(UInt16.self, at: 18)) == bits,
                  Array(bytes[bytes.startIndex + 28 ..< bytes.startIndex + 40]) == subFormatBase else { return nil }
            let speakers = UInt64(bytes.littleEndian(UInt32.self, at: 20))
            guard speakers.nonzeroBitCount == channels else { return nil }
            mask = speakers
            tag = bytes.littleEndian(UInt32.self, at: 24)
        } else if tag != 1 && tag != 3 {
            return nil
        }
        return (tag, channels, rate, byteRate, blockAlign, bits, mask)
    }

    /// The tags of a `LIST`/`INFO` chunk's body, under FFmpeg's names; nil when a sub-chunk
    /// runs past the list, has a key that is not four printable characters, or repeats a name.
    private static func info(in body: Data) -> [String: String]? {
        var tags: [String: String] = [:]
        var position = body.startIndex
        while body.endIndex - position >= 8 {
            let code = body[position ..< position + 4]
            let length = Int(body.littleEndian(UInt32.self, at: position - body.startIndex + 4))
            let value = position + 8
            guard length <= body.endIndex - value, code.allSatisfy({ (0x20..<0x7F).contains($0) }) else { return nil }
            let key = String(decoding: code, as: UTF8.self)
            let text = String(decoding: body[value ..< value + length].prefix { $0 != 0 }, as: UTF8.self)
            let name = infoNames[key.uppercased()] ?? key
            guard tags.updateValue(text, forKey: name) == nil else { return nil }
            position = value + length + (length & 1)
        }
        return tags
    }
}

extension Data {
    /// The little-endian integer of type `T` at byte `offset` from the start.
    func littleEndian<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T {
        var value: T = 0
        for k in (0..<MemoryLayout<T>.size).reversed() { value = value << 8 | T(self[startIndex + offset + k]) }
        return value
    }
}
