/// One part of a constant-frame-rate export split into chunks (`docs/batch.md`): the output
/// frame grid cut into exact ranges `[n0, n1)`, each rendered alone as a piece, then joined.
/// A piece's frames are the frames a single pass makes (nearest, blended and interpolated
/// frames depend only on the source pictures around them); its encoding starts with a
/// keyframe and leans on nothing outside it.
public enum ExportPart: Sendable, Hashable {
    /// Output frames `frames` alone: video only, written as a piece (`.nut`, FFmpeg's own
    /// container, which keeps the 1/fps time base and the frames' own numbers as timestamps).
    case frames(Range<Int>)
    /// The whole output's audio alone, rendered and encoded once through the map as a single
    /// pass does it (`.nut`), for the join to copy: it runs beside the pieces.
    case audio
    /// The whole output, its video packets taken from `pieces` (the frame ranges they hold, in
    /// order, together the whole grid) and checked: each piece holds exactly its frames, every
    /// timestamp is the frame's own number over the frame rate. The audio is copied from
    /// `audio` (the `.audio` part's file), or rendered here when nil, as a single pass does.
    case join([Piece], audio: String?)

    /// A finished piece: its file and the output frames it holds.
    public struct Piece: Sendable, Hashable {
        public let path: String
        public let frames: Range<Int>

        public init(path: String, frames: Range<Int>) {
            self.path = path
            self.frames = frames
        }
    }

    /// `count` output frames cut into `chunks` ranges as even as whole frames allow, in order;
    /// fewer when there are fewer frames than chunks.
    public static func ranges(frames count: Int, chunks: Int) -> [Range<Int>] {
        let parts = max(1, min(chunks, count))
        return (0..<parts).map { count * $0 / parts ..< count * ($0 + 1) / parts }
    }

    /// True for a piece (`frames`): video alone.
    var isPiece: Bool { frames != nil }

    /// The frames of a piece; nil for a join.
    var frames: Range<Int>? {
        if case .frames(let frames) = self { return frames }
        return nil
    }
}
