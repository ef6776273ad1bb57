/// Rows of cells laid out in columns two spaces apart, each as wide as its widest cell; the
/// `rightAligned` columns (numbers) are padded on the left, and no line keeps trailing blanks.
/// The tables of `plan` and `detect`.
enum TextColumns {
    static func lines(_ rows: [[String]], rightAligned: Set<Int> = []) -> [String] {
        let widths = (rows.first ?? []).indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            let cells = row.indices.map { column -> String in
                let pad = String(repeating: " ", count: widths[column] - row[column].count)
                return rightAligned.contains(column) ? pad + row[column] : row[column] + pad
            }
            return String(cells.joined(separator: "  ").reversed().drop { $0 == " " }.reversed())
        }
    }
}
