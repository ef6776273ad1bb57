/// A still picture file `StillImageWriter` wrote: where, in which format, its size (upright)
/// and depth, and whether an HDR picture was tone-mapped to SDR for it.
public struct StillImage: Hashable, Sendable, Codable {
    /// The file, as named to the writer.
    public let path: String
    public let format: StillImageFormat
    /// Pixels across and down, after the picture was turned upright.
    public let width: Int
    public let height: Int
    /// Bits per RGB component in the file: 8, or 16 for PNG and TIFF of deeper sources.
    public let bitDepth: Int
    /// True when an HDR (PQ, HLG) picture was tone-mapped to BT.709 SDR, as 8-bit files are.
    public let toneMapped: Bool
}
