/// How a command a batch ran ended and what it used.
struct CommandExit: Sendable {
    /// What the process used, from `wait4`'s resource usage.
    struct Usage: Codable, Sendable {
        let cpuSeconds: Double
        let peakMemoryBytes: Int64
    }

    /// Its exit status, or 128 + the signal that ended it.
    let status: Int32
    /// The signal that ended it, when one did.
    let signal: Int32?
    let wallSeconds: Double
    let cpuSeconds: Double
    let peakMemoryBytes: Int64

    /// The exit of a process `wait4` reported as `waitStatus` and `usage`.
    init(waitStatus: Int32, usage: Usage, wallSeconds: Double) {
        let termination = waitStatus & 0x7f
        signal = termination == 0 ? nil : termination
        status = signal.map { 128 + $0 } ?? (waitStatus >> 8) & 0xff
        self.wallSeconds = wallSeconds
        cpuSeconds = usage.cpuSeconds
        peakMemoryBytes = usage.peakMemoryBytes
    }
}
