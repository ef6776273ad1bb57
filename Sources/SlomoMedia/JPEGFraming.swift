import Glibc

/// Motion JPEG's packet rules (ITU-T T.81 B.1): each packet is one image (or two, one a field)
/// from its start-of-image marker to its end-of-image marker, segments whose lengths tile the
/// bytes between, a frame header before the scan and sized for its components, and entropy-coded
/// data in which a marker byte appears only stuffed or as a restart marker. Zero padding after
/// the last image is allowed (some cameras pad to an even size).
struct JPEGFraming: CodedFraming {
    mutating func problem(in packet: UnsafeRawBufferPointer) -> String? {
        var offset = 0
        var images = 0
        while offset < packet.count {
            guard offset + 2 <= packet.count, packet[offset] == 0xFF, packet[offset + 1] == 0xD8 else {
                if images > 0 && packet[offset...].allSatisfy({ $0 == 0 }) { return nil }
                return images == 0 ? "a packet that does not begin with a JPEG start-of-image marker"
                    : "\(packet.count - offset) stray bytes after the JPEG end-of-image marker"
            }
            offset += 2
            if let problem = Self.imageProblem(packet, from: &offset) { return problem }
            images += 1
        }
        return images == 0 ? "an empty packet" : nil
    }

    /// Walks one image's segments after its start-of-image marker, up to and past its
    /// end-of-image marker.
    private static func imageProblem(_ packet: UnsafeRawBufferPointer, from offset: inout Int) -> String? {
        var frameHeader = false, scan = false
        while true {
            guard offset < packet.count else { return "a JPEG image without its end-of-image marker" }
            guard packet[offset] == 0xFF else { return "a byte where a JPEG marker belongs" }
            while offset < packet.count && packet[offset] == 0xFF { offset += 1 }     // fill bytes
            guard offset < packet.count else { return "a JPEG image without its end-of-image marker" }
            let marker = packet[offset]
            offset += 1
            switch marker {
            case 0xD9:
                return frameHeader && scan ? nil : "a JPEG image without \(frameHeader ? "a scan" : "a frame header")"
            case 0x00, 0xD8:
                return "a misplaced JPEG marker FF\(hex(marker))"
            case 0x01, 0xD0...0xD7:
                continue                                                            // no length
            default:
                guard offset + 2 <= packet.count else { return "a JPEG segment cut short" }
                let length = Int(packet[offset]) << 8 | Int(packet[offset + 1])
                guard length >= 2, offset + length <= packet.count else { return "a JPEG segment that runs past the packet's end" }
                let segment = UnsafeRawBufferPointer(rebasing: packet[offset..<offset + length])
                offset += length
                if isFrameHeader(marker) {
                    guard length >= 8, length == 8 + 3 * Int(segment[7]) else { return "a JPEG frame header of the wrong length" }
                    frameHeader = true
                } else if marker == 0xDA {
                    guard frameHeader else { return "a JPEG scan before its frame header" }
                    guard length >= 3, length == 6 + 2 * Int(segment[2]) else { return "a JPEG scan header of the wrong length" }
                    scan = true
                    guard skipEntropyCodedData(packet, from: &offset) else { return "a JPEG image without its end-of-image marker" }
                }
            }
        }
    }

    /// SOF0–SOF15, which are C0–CF less DHT (C4), JPG (C8) and DAC (CC).
    private static func isFrameHeader(_ marker: UInt8) -> Bool { 0xC0...0xCF ~= marker && ![0xC4, 0xC8, 0xCC].contains(marker) }

    /// Moves `offset` to the marker that ends a scan's entropy-coded data (FF followed by
    /// neither 00 nor a restart marker); false when the packet ends first.
    private static func skipEntropyCodedData(_ packet: UnsafeRawBufferPointer, from offset: inout Int) -> Bool {
        guard let base = packet.baseAddress else { return false }
        while offset + 1 < packet.count {
            guard let found = memchr(base + offset, 0xFF, packet.count - offset) else { return false }
            offset = base.distance(to: UnsafeRawPointer(found))
            guard offset + 1 < packet.count else { return false }
            let next = packet[offset + 1]
            if next == 0x00 || 0xD0...0xD7 ~= next {
                offset += 2
            } else if next == 0xFF {
                offset += 1
            } else {
                return true
            }
        }
        return false
    }

    private static func hex(_ byte: UInt8) -> String {
        (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
    }
}
