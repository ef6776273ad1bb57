/// The fields of a one-line status (the progress bar's tail, capture's status) that give way
/// in rank order when the line is too wide for the terminal.
enum StatusFields {
    /// The fields joined by two spaces, leaving out those ranked below the lowest rank at which
    /// `fits` accepts the result; nil when even the highest-ranked fields alone do not fit.
    static func joined(_ fields: [(text: String, rank: Int)], fitting fits: (String) -> Bool) -> String? {
        let ranks = Set(fields.map(\.rank)).sorted()
        for least in ranks {
            let line = fields.filter { $0.rank >= least }.map(\.text).joined(separator: "  ")
            if fits(line) { return line }
        }
        return nil
    }
}
