import SlomoConcurrency

/// Items `0 ..< count` handed out in order to `lanes` threads, one at a time, until every item
/// was taken or a lane's `body` answers false (then no lane takes another). Returns once every
/// lane has finished. The dry runs of a plan and the local engine's jobs go this way.
enum WorkLanes {
    static func run(_ count: Int, lanes: Int, name: String, _ body: @escaping @Sendable (Int) -> Bool) {
        let next = Guarded((item: 0, stopped: false))
        let workers = (0..<max(1, min(lanes, count))).map { lane in
            PipelineWorker("\(name) \(lane)", scope: nil) {
                while true {
                    let item = next.withLock { state -> Int? in
                        guard !state.stopped, state.item < count else { return nil }
                        defer { state.item += 1 }
                        return state.item
                    }
                    guard let item else { return }
                    if !body(item) { next.withLock { $0.stopped = true } }
                }
            }
        }
        for worker in workers { _ = worker.join() }
    }
}
