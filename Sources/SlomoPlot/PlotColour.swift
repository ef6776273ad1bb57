/// An opaque colour of a plot, components in 0…1.
public struct PlotColour: Hashable, Sendable {
    public let red: Double
    public let green: Double
    public let blue: Double

    /// The colour written `0xRRGGBB`.
    public init(hex: UInt32) {
        red = Double(hex >> 16 & 0xFF) / 255
        green = Double(hex >> 8 & 0xFF) / 255
        blue = Double(hex & 0xFF) / 255
    }

    init(red: Double, green: Double, blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// This colour mixed with white: 0 keeps it, 1 is white. Shades of one hue for fills
    /// stay opaque, so what lies under them never shows through.
    public func tint(_ amount: Double) -> PlotColour {
        PlotColour(red: red + (1 - red) * amount, green: green + (1 - green) * amount, blue: blue + (1 - blue) * amount)
    }

    /// The components as 8-bit values, as a PNG stores them.
    public var bytes: (red: UInt8, green: UInt8, blue: UInt8) {
        (UInt8((red * 255).rounded()), UInt8((green * 255).rounded()), UInt8((blue * 255).rounded()))
    }

    static let white = PlotColour(hex: 0xFFFFFF)
    static let ink = PlotColour(hex: 0x1F2430)
    static let mutedInk = PlotColour(hex: 0x5A6270)
    static let grid = PlotColour(hex: 0xDDE1E6)
    static let frame = PlotColour(hex: 0x9AA1AC)
    static let alert = PlotColour(hex: 0xD62728)

    /// Ten hues that stay apart from each other (Tableau 10), for sections in order.
    static let sections: [PlotColour] = [0x4E79A7, 0xF28E2B, 0x59A14F, 0xB07AA1, 0xE15759,
                                         0x76B7B2, 0xEDC948, 0x9C755F, 0xFF9DA7, 0xBAB0AC].map(PlotColour.init(hex:))
}
