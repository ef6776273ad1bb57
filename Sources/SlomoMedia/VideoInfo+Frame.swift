import SlomoCore

extension VideoInfo {
    /// What a decoded picture says about its stream: size, pixel format, depth, aspect and
    /// colour (a live source has no container to describe it).
    public init(picture frame: Frame) {
        self.init(width: frame.width, height: frame.height, pixelFormat: frame.pixelFormat.name,
                  bitDepth: frame.pixelFormat.bitDepth, sampleAspectRatio: nil, rotation: 0, nominalFrameRate: nil,
                  averageFrameRate: nil, highFrameRate: false, color: frame.color, hdr: nil)
    }
}
