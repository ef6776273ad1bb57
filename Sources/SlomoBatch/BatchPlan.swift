import Foundation
import SlomoCore

/// A checked batch: its jobs in task-index order, as `plan.json` in the run folder holds them.
public struct BatchPlan: Codable, Hashable, Sendable {
    /// The version of `plan.json`'s layout.
    public static let schemaVersion = 1

    public var schemaVersion = BatchPlan.schemaVersion
    public var slomoVersion = SlomoVersion.current
    /// Where the jobs came from: the manifest's absolute path, or `command line`.
    public var manifest: String
    public var jobs: [BatchJob]

    public init(manifest: String, jobs: [BatchJob]) {
        self.manifest = manifest
        self.jobs = jobs
    }

    /// The job a task index names; `.invalidIndex` when there is none.
    public func job(at index: Int) throws(BatchError) -> BatchJob {
        guard jobs.indices.contains(index) else {
            throw BatchError(.invalidIndex, "task index \(index) names no job: the plan has jobs 0 to \(jobs.count - 1)")
        }
        return jobs[index]
    }
}
