/// Reads the bits of one H.264 or HEVC NAL unit's payload (its RBSP): fixed-width fields and
/// Exp-Golomb codes, skipping the emulation-prevention bytes (`00 00 03`) as it goes, so that
/// only the bytes a header spans are ever touched (the slice data is never read). Reading past
/// the end throws, so a truncated header is never half-believed. The unit's bytes must outlive
/// the reader.
struct NALBitReader {
    struct Overrun: Error {}

    private let bytes: UnsafeRawBufferPointer
    /// The byte being read, and the next bit in it (0 is the most significant).
    private var index = 0
    private var bit = 0
    /// Zero bytes read just before `index`.
    private var zeros = 0

    /// `payload` is the NAL unit without its start code or length prefix, header byte included.
    init(nal payload: UnsafeRawBufferPointer) {
        bytes = payload
    }

    /// u(n): `count` bits, most significant first (at most 32).
    mutating func bits(_ count: Int) throws(Overrun) -> Int {
        var value = 0
        for _ in 0..<count { value = value << 1 | (try nextBit()) }
        return value
    }

    mutating func flag() throws(Overrun) -> Bool { try nextBit() == 1 }

    /// ue(v): unsigned Exp-Golomb.
    mutating func unsigned() throws(Overrun) -> Int {
        var zeros = 0
        while try nextBit() == 0 {
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

    private mutating func nextBit() throws(Overrun) -> Int {
        guard index < bytes.count else { throw Overrun() }
        let byte = bytes[index]
        let value = Int(byte >> (7 - UInt8(bit))) & 1
        bit += 1
        if bit == 8 {
            bit = 0
            zeros = byte == 0 ? zeros + 1 : 0
            index += 1
            if zeros >= 2 && index < bytes.count && bytes[index] == 3 {       // emulation prevention
                index += 1
                zeros = 0
            }
        }
        return value
    }
}
