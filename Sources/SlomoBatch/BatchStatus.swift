/// Where every job of a batch stands, read from the run folder's result files (the truth) and,
/// for a job without one, from what the engine still holds (Slurm's queue).
public struct BatchStatus: Sendable {
    /// A job's state.
    public enum State: String, Codable, Sendable, CaseIterable {
        /// Its result says done and its output is the file it wrote (or, for a chunk, its
        /// join is done: the chunk is not needed any more).
        case done
        case failed
        /// Done once, but its output has since gone or changed: it runs again.
        case changed
        /// Waiting in the engine's queue.
        case queued
        case running
        /// Neither run nor queued.
        case pending
    }

    /// One job's line.
    public struct Row: Codable, Sendable {
        public let index: Int
        public let id: String
        /// Where it was asked for, with its part of a chunked export: `batch.yaml:6: jobs[1]: chunk 2 of 3`.
        public let place: String
        /// The jobs it waits for (a chunked export's join: its chunks and its audio).
        public let waitsFor: [Int]
        public let input: String
        public let output: String
        public let state: State
        public let message: String?
        public let warnings: [String]
        public let wallSeconds: Double?
        public let host: String?
    }

    public let rows: [Row]

    /// Reads `plan`'s results in `runFolder`; `queued` maps job indices to the engine's state
    /// names (`PENDING`, `RUNNING`, …) for jobs it still holds.
    public init(of plan: BatchPlan, in runFolder: RunFolder, queued: [Int: String] = [:]) {
        let dependents = plan.dependents
        rows = plan.jobs.map { job in
            let result = runFolder.result(of: job)
            let state: State
            switch (result?.status, queued[job.index]) {
            case (.done?, _):
                state = result!.outputLooksIntact || !runFolder.outputNeeded(by: dependents[job.index] ?? []) ? .done : .changed
            case (.failed?, nil): state = .failed
            case (_, "RUNNING"?), (_, "COMPLETING"?): state = .running
            case (_, _?): state = .queued
            case (nil, nil): state = .pending
            }
            return Row(index: job.index, id: job.id, place: job.place.description, waitsFor: job.dependencies, input: job.input,
                       output: job.output, state: state, message: result?.message,
                       warnings: result?.warnings ?? [], wallSeconds: result?.wallSeconds, host: result?.host)
        }
    }

    /// How many jobs are in each state.
    public func count(_ state: State) -> Int { rows.count { $0.state == state } }

    /// True while any job has failed.
    public var hasFailures: Bool { count(.failed) > 0 }
}
