/// Where a running batch stands: the counts of its jobs and, once a job has finished in this
/// run, an estimate of the time left. Engines report it after every change.
public struct BatchProgress: Sendable {
    /// Jobs in the plan.
    public var total: Int
    /// Done, before this run or in it.
    public var done = 0
    public var failed = 0
    public var running = 0
    /// Done before this run (counted in `done`).
    public var skipped = 0
    public var elapsedSeconds: Double = 0
    /// The seconds still to go, from the mean time of the jobs finished in this run and how
    /// many run at once; nil until one has finished.
    public var etaSeconds: Double?

    public init(total: Int) { self.total = total }

    /// Jobs neither finished nor running.
    public var pending: Int { total - done - failed - running }

    /// Finished (done or failed) over all.
    public var fraction: Double { total == 0 ? 1 : Double(done + failed) / Double(total) }
}
