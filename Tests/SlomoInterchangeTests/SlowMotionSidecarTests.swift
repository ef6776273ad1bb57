import Foundation
import SlomoCore
import SlomoInterchange
import Testing

/// Photos' slow-motion sidecars, written here with Foundation's own serializers in both
/// formats, and malformed ones that must fail with the file and the field named.
@Suite struct SlowMotionSidecarTests {
    static func cmTime(_ value: Int64, _ timescale: Int32, flags: Int = 1) -> [String: Any] {
        ["value": value, "timescale": timescale, "flags": flags, "epoch": 0]
    }

    /// `{"slowMotion": {"rate": …, "regions": [{"timeRange": {start, duration}}]}}`.
    static func slowMotion(rate: Double? = 0.125, regions: [(Int64, Int64)] = [(480, 480)], timescale: Int32 = 240) -> [String: Any] {
        var body: [String: Any] = ["regions": regions.map { start, duration in
            ["timeRange": ["start": cmTime(start, timescale), "duration": cmTime(duration, timescale)]]
        }]
        if let rate { body["rate"] = rate }
        return ["slowMotion": body]
    }

    /// An `.AAE` property list around `adjustmentData`.
    static func aae(_ adjustment: Data, version: String, identifier: String = SlowMotionSidecar.slowMotionIdentifier) throws -> Data {
        let root: [String: Any] = ["adjustmentBaseVersion": 0, "adjustmentData": adjustment,
                                   "adjustmentEditorBundleID": "com.apple.mobileslideshow",
                                   "adjustmentFormatIdentifier": identifier, "adjustmentFormatVersion": version,
                                   "adjustmentRenderTypes": 0]
        return try PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0)
    }

    static func format11(_ body: [String: Any] = slowMotion()) throws -> Data {
        try aae(try PropertyListSerialization.data(fromPropertyList: body, format: .binary, options: 0), version: "1.1")
    }

    static func format10(_ body: [String: Any] = slowMotion()) throws -> Data {
        try aae(try NSKeyedArchiver.archivedData(withRootObject: body as NSDictionary, requiringSecureCoding: false), version: "1.0")
    }

    @Test func readsFormat11() throws {
        let sidecar = try SlowMotionSidecar(data: try Self.format11(), path: "IMG_0001.AAE")
        #expect(sidecar.format == "AAE 1.1")
        #expect(sidecar.rate == (try Rate(Rational(1, 8))))
        #expect(sidecar.regions == [TimeRange(start: .seconds(2), end: .seconds(4))])
    }

    @Test func readsFormat10KeyedArchive() throws {
        let sidecar = try SlowMotionSidecar(data: try Self.format10(Self.slowMotion(rate: 0.25, regions: [(600, 600), (1800, 300)], timescale: 600)),
                                            path: "IMG_0001.AAE")
        #expect(sidecar.format == "AAE 1.0")
        #expect(sidecar.rate == (try Rate(Rational(1, 4))))
        #expect(sidecar.regions == [TimeRange(start: .seconds(1), end: .seconds(2)), TimeRange(start: .seconds(3), end: .seconds(3.5))])
    }

    @Test func olderSidecarHoldsOnlyRegionsAtQuarterSpeed() throws {
        let data = try PropertyListSerialization.data(fromPropertyList: Self.slowMotion(rate: nil)["slowMotion"]!, format: .xml, options: 0)
        let sidecar = try SlowMotionSidecar(data: data, path: "IMG_0001.SLM")
        #expect(sidecar.format == "SLM")
        #expect(sidecar.rate == (try Rate(Rational(1, 4))))
        #expect(sidecar.regions.count == 1)
    }

    @Test(arguments: [
        (try format11(["nothing": 1]), "has no slowMotion.regions list"),
        (try format11(slowMotion(rate: 0)), "slowMotion.rate 0 is not a rate between 1/32 and 32"),
        (try format11(["slowMotion": ["rate": 0.25, "regions": [["timeRange": ["start": cmTime(0, 0), "duration": cmTime(1, 1)]]]]]),
         "slowMotion.regions[0].timeRange.start needs an integer value and a positive timescale"),
        (try format11(["slowMotion": ["rate": 0.25, "regions": [["timeRange": ["start": cmTime(0, 600, flags: 0), "duration": cmTime(1, 1)]]]]]),
         "slowMotion.regions[0].timeRange.start is not a valid time"),
        (try format11(slowMotion(regions: [(480, 0)])), "a region must start at 0 or later and last"),
        (try format11(["slowMotion": ["regions": [["range": 1]]]]), "slowMotion.regions[0].timeRange is missing"),
        (try aae(Data("junk".utf8), version: "1.1"), "adjustmentData of format 1.1 is not a property list dictionary"),
        (try aae(Data("junk".utf8), version: "1.0"), "adjustmentData of format 1.0 is not a keyed archive"),
        (try aae(Data(), version: "2.0"), "has adjustmentFormatVersion 2.0; slomo reads 1.0 and 1.1"),
        (try aae(Data(), version: "1.1", identifier: "com.apple.photo"), "is a Photos adjustment of 'com.apple.photo', not slow motion"),
        (Data("not a plist".utf8), "is not a property list dictionary"),
    ])
    func malformedSidecarsNameTheFileAndTheField(data: Data, expected: String) {
        do {
            _ = try SlowMotionSidecar(data: data, path: "/clips/IMG_0001.AAE")
            Issue.record("no error for \(expected)")
        } catch {
            #expect("\(error)".hasPrefix("/clips/IMG_0001.AAE: "), "\(error)")
            #expect("\(error)".contains(expected), "\(error)")
        }
    }
}
