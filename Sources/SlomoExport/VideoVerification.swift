import SlomoMedia

/// The `verify` part of a passthrough export: every video packet copied is also decoded, on
/// a thread of its own (`DecodeCheck` decodes on one thread), so that damage in the media data
/// is found while the copy and the audio go on.
final class VideoVerification {
    private let queue = BoundedQueue<Packet>(capacity: 64)
    private let thread: PipelineThread
    /// Written by the thread before it ends, read after `join()`.
    private final class Outcome { var damage: Damage? }
    private let outcome = Outcome()

    /// Starts checking stream `index` of `demuxer`'s file.
    init(demuxer: Demuxer, stream index: Int) throws {
        let check = try DecodeCheck(demuxer: demuxer, stream: index)
        let queue = queue, outcome = outcome
        thread = PipelineThread("slomo verify") {
            while let packet = try queue.pop() { check.check(packet) }
            outcome.damage = check.finish()
        }
    }

    /// Hands over a packet as read (before its timestamps are rewritten); waits while the
    /// decoder is 64 packets behind.
    func submit(_ packet: Packet) throws {
        try queue.push(try packet.clone())
    }

    /// Waits for the decoder to finish and says what it found damaged; nil when nothing.
    func finish() throws -> Damage? {
        queue.finish()
        if let error = thread.join() { throw error }
        return outcome.damage
    }

    /// Stops checking if it still runs (the export failed or was cancelled); after `finish()`
    /// it only waits for the thread, which has ended.
    func cancel() {
        queue.fail(QueueClosed())
        thread.join()
    }
}
