import Foundation

extension Damage {
    /// Boxes whose payload is a sequence of boxes, which must tile it exactly.
    static let containerBoxes: Set<String> = ["moov", "trak", "mdia", "minf", "stbl", "edts", "dinf", "mvex", "moof", "traf",
                                              "mfra", "udta"]

    /// The structure of an MP4/MOV file checked without reading its media: every box's size
    /// must fit in its parent, and a container's children must tile it (a box claiming more
    /// than it has, a chunk overwritten, zeroed or repeated over headers). Nil when the file
    /// reads well or is not an ISO/QuickTime file; the first problem otherwise.
    static func boxStructure(of path: String) -> Damage? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), size > 8 else { return nil }
        return walk(handle, from: 0, to: size, parent: nil, fileSize: size)
    }

    /// Walks the boxes in `start ..< end` (the payload of `parent`, or the whole file).
    private static func walk(_ handle: FileHandle, from start: UInt64, to end: UInt64, parent: String?,
                             fileSize: UInt64) -> Damage? {
        var offset = start
        while offset < end {
            let left = end - offset
            // QuickTime lets user data end with a 32-bit zero; anything else shorter than a header is damage.
            if left < 8 {
                if parent == "udta", left == 4, read(handle, at: offset, count: 4) == Data(count: 4) { return nil }
                return structure("\(left) stray bytes end the \(parent.map { "'\($0)' box" } ?? "file") at byte \(offset)")
            }
            guard let header = read(handle, at: offset, count: 16), header.count >= 8 else { return nil }
            let declared = UInt64(header.prefix(4).reduce(0) { $0 << 8 | UInt32($1) })
            // Box types are four printable characters; QuickTime's metadata keys start with © (0xA9).
            let type = String(decoding: header[4..<8].map { $0 == 0xA9 ? UInt8(ascii: "@") : $0 }, as: UTF8.self)
            guard header[4..<8].allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || $0 == 0xA9 }) else {
                return structure("byte \(offset) holds no box header (type bytes \(header[4..<8].map { String(format: "%02x", $0) }.joined()))"
                                 + " inside the \(parent.map { "'\($0)' box" } ?? "file")")
            }
            var length = declared, headerLength: UInt64 = 8
            if declared == 1 {
                guard header.count == 16 else { return nil }
                length = header[8..<16].reduce(0) { $0 << 8 | UInt64($1) }
                headerLength = 16
            } else if declared == 0 {
                guard parent == nil else { return structure("the '\(type)' box at byte \(offset) in '\(parent!)' has size 0") }
                length = left
            }
            guard length >= headerLength else {
                return structure("the '\(type)' box at byte \(offset) claims \(length) bytes, less than its own header")
            }
            if length > left {
                return structure("the '\(type)' box at byte \(offset) claims \(length) bytes, \(length - left) more than "
                                 + "its \(parent.map { "'\($0)' box" } ?? "file") has")
            }
            if containerBoxes.contains(type),
               let damage = walk(handle, from: offset + headerLength, to: offset + length, parent: type, fileSize: fileSize) {
                return damage
            }
            offset += length
        }
        return nil
    }

    private static func read(_ handle: FileHandle, at offset: UInt64, count: Int) -> Data? {
        guard (try? handle.seek(toOffset: offset)) != nil else { return nil }
        return try? handle.read(upToCount: count)
    }

    private static func structure(_ problem: String) -> Damage {
        Damage(kind: .structure, stream: -1, readableUntil: nil, packets: 0, message: problem + " (file damaged?)")
    }
}
