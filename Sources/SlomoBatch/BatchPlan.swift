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

    /// For each job that others wait for, those others (a chunk's join).
    public var dependents: [Int: [BatchJob]] {
        var dependents: [Int: [BatchJob]] = [:]
        for job in jobs {
            for index in job.dependencies { dependents[index, default: []].append(job) }
        }
        return dependents
    }

    /// `jobs` in the order they can run: first those that wait for none of them, then those
    /// that wait only for the first, and so on (a chunked export's join after its chunks).
    static func waves(of jobs: [BatchJob]) -> [[BatchJob]] {
        var waves: [[BatchJob]] = []
        var left = jobs
        while !left.isEmpty {
            let open = Set(left.map(\.index))
            let ready = left.filter { $0.dependencies.allSatisfy { !open.contains($0) } }
            precondition(!ready.isEmpty, "a plan's jobs wait for each other in a circle")
            let readyIndices = Set(ready.map(\.index))
            waves.append(ready)
            left.removeAll { readyIndices.contains($0.index) }
        }
        return waves
    }
}
