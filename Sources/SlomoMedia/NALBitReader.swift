/// Reads the bits of one H.264 or HEVC NAL unit's payload (its RBSP): fixed-width fields and
/// Exp-Golomb codes, with the emulation-prevention bytes (`00 00 03`) taken out first.
/// Reading past the end throws, so a truncated header is never half-believed.
struct NALBitReader {
    struct Overrun: Error {}

    private let bytes: [UInt8]
    private var position = 0    // in bits

    /// `payload` is the NAL unit without its start code or length prefix, header byte included.
    init(nal payload: UnsafeRawBufferPointer) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(payload.count, 1024))
        var zeros = 0
        // Headers and parameter sets sit in the first bytes: the slice data is never read.
        for byte in payload.prefix(1024) {
            if zeros >= 2 && byte == 3 {
                zeros = 0
                continue
            }
            zeros = byte == 0 ? zeros + 1 : 0
            bytes.append(byte)
        }
        self.bytes = bytes
    }

    /// u(n): `count` bits, most significant first (at most 32).
    mutating func bits(_ count: Int) throws(Overrun) -> Int {
        var value = 0
        for _ in 0..<count { value = value << 1 | (try bit()) }
        return value
    }

    mutating func flag() throws(Overrun) -> Bool { try bit() == 1 }

    /// ue(v): unsigned Exp-Golomb.
    mutating func unsigned() throws(Overrun) -> Int {
        var zeros = 0
        while try bit() == 0 {
            zeros += 1
            if zeros > 31 { throw Overrun() }
        }
        return (1 << zeros) - 1 + (try bits(zeros))
    }

    /// se(v): signed Exp-Golomb.
    mutating func signed() throws(Overrun) -> Int {
        let code = try unsigned()
        return code & 1 == 1 ? (code + 1) / 2 : -(code / 2)
    }

    private mutating func bit() throws(Overrun) -> Int {
        guard position < bytes.count * 8 else { throw Overrun() }
        defer { position += 1 }
        return Int(bytes[position >> 3] >> (7 - UInt8(position & 7))) & 1
    }
}
