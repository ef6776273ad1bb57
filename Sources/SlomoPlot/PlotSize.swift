/// The size of a plot: pixels for PNG and SVG, points for PDF.
public struct PlotSize: Hashable, Sendable, CustomStringConvertible {
    public let width: Int
    public let height: Int

    /// 1200 × 700, readable on a screen and in a document.
    public static let standard = PlotSize(checkedWidth: 1200, height: 700)
    /// The smallest size whose labels still fit.
    public static let minimum = PlotSize(checkedWidth: 400, height: 300)
    /// The largest size (a PNG of this size takes 256 MB while it is drawn).
    public static let maximum = PlotSize(checkedWidth: 8000, height: 8000)

    /// A size between `minimum` and `maximum`; throws `.invalidSize` otherwise.
    public init(width: Int, height: Int) throws(PlotError) {
        guard (Self.minimum.width...Self.maximum.width).contains(width),
              (Self.minimum.height...Self.maximum.height).contains(height) else {
            throw PlotError(.invalidSize, path: "\(width)x\(height)",
                            detail: "a plot is \(Self.minimum) to \(Self.maximum) (width x height)")
        }
        self.init(checkedWidth: width, height: height)
    }

    /// A size written `WIDTHxHEIGHT`, e.g. `1200x700`; throws `.invalidSize`.
    public init(_ text: String) throws(PlotError) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else {
            throw PlotError(.invalidSize, path: text, detail: "expected WIDTHxHEIGHT, e.g. 1200x700")
        }
        try self.init(width: width, height: height)
    }

    private init(checkedWidth width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// `1200x700`.
    public var description: String { "\(width)x\(height)" }
}
