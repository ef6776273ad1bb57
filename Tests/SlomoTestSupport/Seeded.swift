/// A small deterministic generator (64-bit LCG), so that every run of a test makes the same
/// bytes: damaged copies, garbage files.
public struct Seeded {
    public var state: UInt64

    public init(state: UInt64) { self.state = state }

    /// A number in `0..<bound`.
    public mutating func next(_ bound: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(bound))
    }
}
