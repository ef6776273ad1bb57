/// ProRes's packet rules (Apple ProRes bitstream syntax, as FFmpeg's decoder reads it): a frame
/// whose size field is the packet's size, the `icpf` tag, a frame header of a known version
/// giving the stream's width and height, then one picture (two for interlaced frames) whose
/// header, slice index and slices add up exactly to the picture's size.
struct ProResFraming: CodedFraming {
    let width: Int
    let height: Int

    mutating func problem(in packet: UnsafeRawBufferPointer) -> String? {
        func u16(_ at: Int) -> Int { Int(packet[at]) << 8 | Int(packet[at + 1]) }
        func u32(_ at: Int) -> Int { u16(at) << 16 | u16(at + 2) }
        guard packet.count >= 28 else { return "a ProRes frame of \(packet.count) bytes, shorter than its header" }
        guard u32(0) == packet.count else { return "a ProRes frame that says it has \(u32(0)) bytes in a packet of \(packet.count)" }
        guard packet[4..<8].elementsEqual("icpf".utf8) else { return "a ProRes frame without its icpf tag" }
        let headerSize = u16(8)
        guard headerSize >= 20, 8 + headerSize <= packet.count else { return "a ProRes frame header of \(headerSize) bytes" }
        guard u16(10) <= 1 else { return "a ProRes frame header of unknown version \(u16(10))" }
        guard u16(16) == width, u16(18) == height else {
            return "a ProRes frame of \(u16(16))x\(u16(18)) in a \(width)x\(height) stream"
        }
        let interlaced = (packet[20] >> 2) & 3 != 0
        var offset = 8 + headerSize
        for _ in 0..<(interlaced ? 2 : 1) {
            guard offset + 8 <= packet.count else { return "a ProRes picture cut short" }
            let pictureHeader = Int(packet[offset] >> 3), pictureSize = u32(offset + 1), slices = u16(offset + 5)
            guard pictureHeader >= 8, slices > 0, pictureSize >= pictureHeader + 2 * slices,
                  offset + pictureSize <= packet.count else { return "a ProRes picture header that does not fit its frame" }
            let index = offset + pictureHeader
            let sliceBytes = (0..<slices).reduce(0) { $0 + u16(index + 2 * $1) }
            guard pictureHeader + 2 * slices + sliceBytes == pictureSize else {
                return "ProRes slices that do not add up to their picture"
            }
            offset += pictureSize
        }
        return offset == packet.count ? nil : "\(packet.count - offset) stray bytes after the ProRes picture"
    }
}
