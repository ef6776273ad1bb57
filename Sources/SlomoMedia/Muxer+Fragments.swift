import CFFmpeg

extension Muxer {
    /// Muxer options for a fragmented MOV/MP4 whose fragments slomo cuts itself with
    /// `flushFragment()`: an empty `moov` up front, then self-contained `moof`+`mdat` pairs, so a
    /// file cut off anywhere plays up to its last complete fragment.
    public static let fragmentedMovieOptions = ["movflags": "frag_custom+empty_moov+default_base_moof"]

    /// Ends the current fragment (packets handed to the muxer so far) and pushes it out of
    /// FFmpeg's I/O buffer to the kernel, so that a crash from now on cannot tear it
    /// (`file:` buffers 256 KiB otherwise). Needs `fragmentedMovieOptions`.
    public func flushFragment() throws(FFmpegError) {
        try check(av_write_frame(context, nil), "write fragment", path: path)
        if let io = context.pointee.pb { avio_flush(io) }
        if let io = context.pointee.pb, io.pointee.error < 0 {
            throw FFmpegError(code: io.pointee.error, operation: "write fragment", path: path)
        }
    }

    /// Pushes what FFmpeg's I/O buffer holds to the kernel (e.g. the header of a recording).
    public func flushOutput() throws(FFmpegError) {
        guard let io = context.pointee.pb else { return }
        avio_flush(io)
        if io.pointee.error < 0 { throw FFmpegError(code: io.pointee.error, operation: "write", path: path) }
    }

    /// Bytes written to the output so far (what is still in FFmpeg's buffers included).
    public var bytesWritten: Int64 {
        guard let io = context.pointee.pb else { return 0 }
        return avio_tell(io)
    }
}
