import CFFmpeg
import Glibc

extension Muxer {
    /// Leaves `bytes` of room (a `free` box) right after the header of a fragmented movie, so
    /// that `rewriteHeaderMetadata(_:options:)` can later give the header more tags in place.
    /// Call it right after `writeHeader`, before any packet.
    public func reserveHeaderSpace(_ bytes: Int) throws(FFmpegError) {
        guard let io = context.pointee.pb, bytes >= 8 else { return }
        avio_write(io, MovieBoxes.freeBox(size: bytes), Int32(bytes))
        try flushOutput()
    }

    /// Replaces the container tags in the header of the fragmented movie on disk with `tags`.
    ///
    /// FFmpeg writes a fragmented movie's `moov` (and the tags in its `udta`/`meta`) with the
    /// header only; its trailer adds just an `mfra` index (movenc.c, `mov_write_trailer`), so tags
    /// set later would be lost. Here FFmpeg writes a header with the new tags into memory (same
    /// streams, same `options`), its tag boxes replace those of the `moov` on disk, and the
    /// `free` box after it (`reserveHeaderSpace`) shrinks by what they grew, so nothing after
    /// the header moves. Safe while recording (between fragments) and after `finish()`.
    /// Throws `FFmpegError` when FFmpeg cannot write the new header, and `MediaError` when the
    /// file cannot be opened, read or written (`.writeFailed`), has no `moov` at its start
    /// (`.damaged`), or when the tags need more room than the header has (`.invalidArgument`).
    public func rewriteHeaderMetadata(_ tags: [String: String], options: [String: String]) throws {
        let generated = try headerBytes(tags: tags, options: options)
        guard let generatedMoov = MovieBoxes.box("moov", in: generated, from: 0) else {
            throw MediaError(.writeFailed, path: path, detail: "write tags: no moov in the new \(containerName) header")
        }
        let newTags = MovieBoxes.children(of: generatedMoov, in: generated)
            .filter { $0.type == "udta" || $0.type == "meta" }.flatMap { generated[$0.range] }

        let file = try ioCall("open to write tags") { open(path, O_RDWR | O_CLOEXEC) }
        defer { close(file) }
        var head = [UInt8](repeating: 0, count: 1 << 20)
        let count = try ioCall("read the header to write tags") { pread(file, &head, head.count, 0) }
        head.removeSubrange(count...)
        guard let moov = MovieBoxes.box("moov", in: head, from: 0) else {
            throw MediaError(.damaged, path: path, detail: "write tags: no moov at the start of the file")
        }
        let free = MovieBoxes.boxes(in: head, from: moov.range.upperBound).first.flatMap { $0.type == "free" ? $0 : nil }
        let room = moov.range.count + (free?.range.count ?? 0)
        var rewritten = Array(head[moov.range.lowerBound ..< moov.range.lowerBound + 8])
        for child in MovieBoxes.children(of: moov, in: head) where child.type != "udta" && child.type != "meta" {
            rewritten += head[child.range]
        }
        rewritten += newTags
        MovieBoxes.setSize(of: &rewritten, at: 0)
        guard rewritten.count == room || rewritten.count + 8 <= room else {
            throw MediaError(.invalidArgument, path: path,
                             detail: "write tags: they need \(rewritten.count + 8 - room) bytes more than the header has room for")
        }
        if rewritten.count < room { rewritten += MovieBoxes.freeBox(size: room - rewritten.count) }
        let written = try ioCall("write tags into the header") {
            rewritten.withUnsafeBytes { pwrite(file, $0.baseAddress, $0.count, off_t(moov.range.lowerBound)) }
        }
        guard written == rewritten.count else {
            throw MediaError(.writeFailed, path: path,
                             detail: "write tags into the header: only \(written) of \(rewritten.count) bytes were written")
        }
    }

    /// The result of a file operation, or its failure as `.writeFailed` with the system's text.
    private func ioCall<Result: BinaryInteger>(_ operation: String, _ body: () -> Result) throws(MediaError) -> Result {
        do throws(SystemError) { return Result(try SystemError.check(operation) { Int(body()) }) } catch {
            throw MediaError(.writeFailed, path: path, detail: "\(operation): \(error.message)")
        }
    }

    /// The header (`ftyp` + `moov`) FFmpeg writes for this muxer's streams with `tags`.
    private func headerBytes(tags: [String: String], options: [String: String]) throws(FFmpegError) -> [UInt8] {
        var allocated: UnsafeMutablePointer<AVFormatContext>?
        try check(avformat_alloc_output_context2(&allocated, context.pointee.oformat, nil, nil), "write tags", path: path)
        guard let scratch = allocated else { throw FFmpegError(code: FFmpegError.outOfMemory.code, operation: "write tags") }
        defer { avformat_free_context(scratch) }
        for index in 0 ..< Int(context.pointee.nb_streams) {
            let original = context.pointee.streams[index]!
            guard let stream = avformat_new_stream(scratch, nil) else {
                throw FFmpegError(code: FFmpegError.outOfMemory.code, operation: "write tags", path: path)
            }
            try check(avcodec_parameters_copy(stream.pointee.codecpar, original.pointee.codecpar), "write tags", path: path)
            stream.pointee.time_base = original.pointee.time_base
            stream.pointee.avg_frame_rate = original.pointee.avg_frame_rate
            av_dict_copy(&stream.pointee.metadata, original.pointee.metadata, 0)
        }
        for (key, value) in tags { av_dict_set(&scratch.pointee.metadata, key, value, 0) }
        try check(avio_open_dyn_buf(&scratch.pointee.pb), "write tags", path: path)
        var dictionary = OptionDictionary(options)
        defer { dictionary.free() }
        let status = avformat_write_header(scratch, &dictionary.pointer)
        if status >= 0 { av_write_trailer(scratch) }
        var buffer: UnsafeMutablePointer<UInt8>?
        let size = avio_close_dyn_buf(scratch.pointee.pb, &buffer)
        scratch.pointee.pb = nil
        defer { av_free(buffer) }
        try check(status, "write tags", path: path)
        guard let buffer, size > 0 else { throw FFmpegError(code: FFmpegError.invalidData.code, operation: "write tags", path: path) }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(size)))
    }
}

/// Reading and writing the boxes (atoms) of an ISO/QuickTime movie: 32-bit sizes only, which
/// is all a header that slomo rewrites holds.
enum MovieBoxes {
    struct Box {
        let type: String
        let range: Range<Int>
    }

    /// The boxes that follow each other from `start` to `end` (the end of `bytes` when nil).
    static func boxes(in bytes: [UInt8], from start: Int, to end: Int? = nil) -> [Box] {
        let end = end ?? bytes.count
        var found: [Box] = []
        var offset = start
        while offset + 8 <= end {
            let size = bytes[offset ..< offset + 4].reduce(0) { $0 << 8 | Int($1) }
            guard size >= 8, offset + size <= end else { break }
            found.append(Box(type: String(decoding: bytes[offset + 4 ..< offset + 8], as: UTF8.self), range: offset ..< offset + size))
            offset += size
        }
        return found
    }

    /// The first top-level box of a type.
    static func box(_ type: String, in bytes: [UInt8], from start: Int) -> Box? {
        boxes(in: bytes, from: start).first { $0.type == type }
    }

    /// The boxes inside a container box.
    static func children(of box: Box, in bytes: [UInt8]) -> [Box] {
        boxes(in: bytes, from: box.range.lowerBound + 8, to: box.range.upperBound)
    }

    /// Sets the size field of the box at `offset` to run to the end of `bytes`.
    static func setSize(of bytes: inout [UInt8], at offset: Int) {
        let size = UInt32(bytes.count - offset)
        for index in 0 ..< 4 { bytes[offset + index] = UInt8(truncatingIfNeeded: size >> (24 - 8 * index)) }
    }

    /// A `free` box of `size` bytes (at least 8).
    static func freeBox(size: Int) -> [UInt8] {
        var box = [UInt8](repeating: 0, count: size)
        box.replaceSubrange(4 ..< 8, with: Array("free".utf8))
        setSize(of: &box, at: 0)
        return box
    }
}
