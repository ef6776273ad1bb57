/// Reading slomo's JSON time (`{"seconds": 2.5, "exact": "5/2"}`) in tests of JSON output.
public enum JSONTime {
    /// The `seconds` of a JSON time object; nil for anything else.
    public static func seconds(_ value: Any?) -> Double? {
        (value as? [String: Any])?["seconds"] as? Double
    }

    /// The `exact` text of a JSON time object; nil for anything else.
    public static func exact(_ value: Any?) -> String? {
        (value as? [String: Any])?["exact"] as? String
    }
}
