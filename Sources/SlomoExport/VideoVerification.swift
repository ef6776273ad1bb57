import Foundation
import SlomoConcurrency
import SlomoMedia

/// The `verify` part of a passthrough export: every video packet copied is also decoded, so
/// that damage in the media data is found while the copy and the audio go on.
///
/// `DecodeCheck` decodes on one thread (frame threads would miss concealed pictures), so the
/// work is spread another way: the stream is cut at keyframes into runs of at least
/// `runLength` packets, dealt in turn to one checker per core, each with its own decoder and
/// thread. A run is decoded as after a seek to its keyframe; in an open GOP the few pictures
/// that lean on the run before are dropped by the decoder, not checked.
final class VideoVerification {
    /// A packet, and whether it starts a run (the checker restarts its decoder there).
    private struct Item {
        let packet: Packet
        let startsRun: Bool
    }

    /// A check on its own thread, which holds the check's lock while it decodes; `finish()`
    /// takes the check out once that thread has ended.
    private final class Checker: Sendable {
        let queue: PipelineQueue<Item>
        let check: Guarded<DecodeCheck?>
        let thread: PipelineWorker

        init(check: sending DecodeCheck) {
            let check = Guarded<DecodeCheck?>(check)
            self.check = check
            let queue = PipelineQueue<Item>(capacity: 1024, bytes: VideoVerification.queuedBytes, cost: { $0.packet.size })
            self.queue = queue
            thread = PipelineWorker("slomo verify") {
                try check.withLock { held in
                    guard let check = held else { return }
                    while let item = try queue.pop() {
                        if item.startsRun { check.restart() }
                        check.check(item.packet)
                    }
                }
            }
        }
    }

    /// Packets a checker gets before the next keyframe may go to the next checker.
    static let runLength = 32
    /// Checkers: one per core, up to four.
    static let checkerCount = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount))

    private let checkers: [Checker]
    private var current = 0
    private var dealt = 0

    /// Packet bytes each checker's queue holds: a whole run fits (so that while the reader
    /// fills one checker's queue the others work; 240 packets of 720p240 H.264 at 40 Mb/s
    /// take 5 MB), and a 1 GB retime stays under 150 MB.
    static let queuedBytes = 8 << 20

    /// Starts checking stream `index` of `demuxer`'s file on `checkers` threads.
    init(demuxer: Demuxer, stream index: Int, checkers count: Int = VideoVerification.checkerCount) throws {
        checkers = try (0..<max(1, count)).map { _ in
            // A check's decoder copies its stream's parameters and keeps no reference to the demuxer.
            Checker(check: disconnected(try DecodeCheck(demuxer: demuxer, stream: index)))
        }
    }

    /// Hands over a packet as read (before its timestamps are rewritten); waits while its
    /// checker's queue is full (1024 packets or 8 MB).
    func submit(_ packet: Packet) throws {
        var startsRun = false
        if checkers.count > 1 && dealt >= Self.runLength && packet.isKeyframe {
            current = (current + 1) % checkers.count
            dealt = 0
            startsRun = true
        }
        dealt += 1
        try checkers[current].queue.push(Item(packet: try packet.clone(), startsRun: startsRun))
    }

    /// Waits for the checkers to finish and says what they found damaged; nil when nothing.
    func finish() throws -> Damage? {
        for checker in checkers { checker.queue.finish() }
        let errors = checkers.compactMap { $0.thread.join() }
        if let error = errors.first { throw error }
        return DecodeCheck.finish(checkers.compactMap { checker in checker.check.withLock { $0.take() } })
    }

    /// Stops checking if it still runs (the export failed or was cancelled); after `finish()`
    /// it only waits for the threads, which have ended.
    func cancel() {
        for checker in checkers {
            checker.queue.fail(QueueClosed())
            checker.thread.join()
        }
    }
}
