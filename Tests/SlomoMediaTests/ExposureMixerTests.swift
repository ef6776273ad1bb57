import SlomoCore
import SlomoMedia
import Testing

/// The mean of pictures in light: white and black mixed half and half is light 0.5, BT.709
/// code 0.705 (Y 170), not the coded mean (Y 126); one picture comes back as it went in
/// (within the rounding of 8-bit R'G'B').
@Suite struct ExposureMixerTests {
    static func grey(_ level: UInt8) throws -> Frame {
        var buffer = PixelBuffer(.yuv420p, width: 64, height: 16)
        buffer.planes[0] = [UInt8](repeating: level, count: buffer.planes[0].count)
        return try Frame(copying: buffer, pts: 0, timeBase: Rational(1, 30))
    }

    static func luma(_ frame: Frame) -> UInt8 { frame.planeData(0)![5 * frame.lineSize(plane: 0) + 7] }

    @Test(arguments: [(1, 170), (4, 123), (16, 63), (32, 45)])
    func whiteForAShareOfTheExposureIsThatShareOfLight(pictures: Int, expected: Int) throws {
        let white = try Self.grey(235), black = try Self.grey(16)
        let mixer = try ExposureMixer(width: 64, height: 16, format: .yuv420p, color: white.color)
        mixer.start()
        try mixer.add(white, weight: 1 / Float(pictures + (pictures == 1 ? 1 : 0)))
        for _ in 1..<max(2, pictures) { try mixer.add(black, weight: 1 / Float(pictures + (pictures == 1 ? 1 : 0))) }
        let mixed = Self.luma(try mixer.finish(like: white))
        print("white for 1/\(pictures == 1 ? 2 : pictures) of the exposure: Y \(mixed) (expected \(expected))")
        #expect(abs(Int(mixed) - expected) <= 1)
    }

    @Test func onePictureComesBackAsItWentIn() throws {
        for level: UInt8 in [16, 40, 126, 200, 235] {
            let picture = try Self.grey(level)
            let mixer = try ExposureMixer(width: 64, height: 16, format: .yuv420p, color: picture.color)
            mixer.start()
            try mixer.add(picture, weight: 1)
            let back = Self.luma(try mixer.finish(like: picture))
            #expect(abs(Int(back) - Int(level)) <= 1, "Y \(level) came back as \(back) (through 8-bit R'G'B')")
        }
    }
}
