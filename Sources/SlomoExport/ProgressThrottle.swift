/// Passes an export's progress on only when it has moved by a hundredth since the last time it
/// did (an export writes thousands of packets or blocks; a progress line needs a hundred).
struct ProgressThrottle {
    private var reported = -1.0

    /// Calls `report` with `progress` when it is a hundredth or more past the last one reported.
    mutating func offer(_ progress: ExportProgress, to report: (ExportProgress) -> Void) {
        guard progress.fraction - reported >= 0.01 else { return }
        reported = progress.fraction
        report(progress)
    }
}
