import Foundation
import SlomoConcurrency

/// Runs a plan's pending jobs on this machine, `parallelJobs` at a time, each through the same
/// `JobExecutor` that `slomo batch exec` uses, and reports `BatchProgress` after every change.
/// Its commands are forked from a `ForkServer` a lane, which loads slomo's libraries once.
/// `JobInterruption` stops it cleanly: running commands remove their unfinished outputs, their
/// jobs get no result and stay pending.
public struct LocalEngine: Sendable {
    public let executor: JobExecutor
    public let parallelJobs: Int

    /// A sensible number of jobs at once: one a core (a job's own threads wait on its encoder,
    /// its decoders and its audio in turn), but no more than one a 2 GiB of memory.
    public static var defaultParallelJobs: Int {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let gibibytes = Int(ProcessInfo.processInfo.physicalMemory >> 30)
        return max(1, min(cores, gibibytes / 2))
    }

    public init(runFolder: RunFolder, slomo: String, parallelJobs: Int = LocalEngine.defaultParallelJobs) {
        executor = JobExecutor(runFolder: runFolder, slomo: slomo, engine: "local")
        self.parallelJobs = max(1, parallelJobs)
    }

    /// Runs `jobs` (normally `RunFolder.pendingJobs`) of `plan`; returns the final progress.
    /// A job whose command cannot even start counts as failed and ends the run with that error.
    public func run(_ jobs: [BatchJob], of plan: BatchPlan, interruption: JobInterruption,
                    progress report: @escaping @Sendable (BatchProgress) -> Void) throws -> BatchProgress {
        let started = ContinuousClock.now
        var initial = BatchProgress(total: plan.jobs.count)
        let waiting = Set(jobs.map(\.index))
        for job in plan.jobs where !waiting.contains(job.index) {
            switch executor.runFolder.result(of: job)?.status {
            case .done?: initial.done += 1; initial.skipped += 1
            case .failed?: initial.failed += 1
            case nil: break
            }
        }
        let state = Guarded((progress: initial, finishedSeconds: 0.0, finishedHere: 0, failure: Error?.none))
        let parallel = parallelJobs
        @Sendable func changed(_ update: (inout BatchProgress) -> Void) {
            state.withLock { state in
                update(&state.progress)
                state.progress.elapsedSeconds = (ContinuousClock.now - started).seconds
                let left = state.progress.pending + state.progress.running
                if state.finishedHere > 0 {
                    state.progress.etaSeconds = state.finishedSeconds / Double(state.finishedHere) * Double(left) / Double(parallel)
                }
                report(state.progress)
            }
        }
        report(initial)
        let launcher = ForkServerPool(slomo: executor.slomo)
        defer { launcher.close() }
        let executor = executor.launching(with: launcher)
        @Sendable func run(_ job: BatchJob) -> Bool {
            guard interruption.signal == nil else { return false }
            changed { $0.running += 1 }
            let outcome: JobExecutor.Outcome
            do {
                outcome = try executor.execute(job, interruption: interruption)
            } catch {
                state.withLock { $0.failure = $0.failure ?? error }
                changed { $0.running -= 1; $0.failed += 1 }
                interruption.interrupt(SIGTERM)
                return false
            }
            switch outcome {
            case .alreadyDone:
                changed { $0.running -= 1; $0.done += 1; $0.skipped += 1 }
            case .ran(let result):
                state.withLock { $0.finishedSeconds += result.wallSeconds; $0.finishedHere += 1 }
                changed {
                    $0.running -= 1
                    if result.status == .done { $0.done += 1 } else { $0.failed += 1 }
                }
            case .interrupted, .waiting:
                changed { $0.running -= 1 }
            }
            return interruption.signal == nil
        }
        for wave in BatchPlan.waves(of: jobs) where interruption.signal == nil && state.read(\.failure) == nil {
            WorkLanes.run(wave.count, lanes: parallelJobs, name: "batch job") { run(wave[$0]) }
        }
        if let failure = state.read(\.failure) { throw failure }
        return state.read(\.progress)
    }
}
