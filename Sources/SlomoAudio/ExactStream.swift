/// What each library wrapper provides; `ExactStream` turns it into a `TimePitchProcessor`.
protocol StretchEngine: AnyObject {
    var channelCount: Int { get }
    /// Output frames by which the raw output lags the aligned output.
    var startDelay: Int { get }
    func setRate(_ rate: Double)
    /// Pushes input; appends produced output to `output`.
    func push(_ input: AudioBuffer, into output: inout PlanarFIFO)
    /// No more input: appends everything still inside to `output`.
    func finish(into output: inout PlanarFIFO)
    func reset()
}

/// Latency compensation and exact-length bookkeeping shared by all processors.
final class ExactStream {
    let engine: any StretchEngine
    let compensates: Bool
    private(set) var rate: Double
    /// Output frames owed for input pushed at earlier rates.
    private var owedBefore: Double = 0
    /// Input frames pushed at the current rate.
    private var inputAtRate = 0
    private(set) var delivered = 0
    private var toDiscard = 0
    /// Whether the engine's start delay has been read (engines may fix it at their first push).
    private var started = false
    private var fifo: PlanarFIFO
    /// True while the rate has been exactly 1 since the start: the input is delivered
    /// unchanged (the engine still runs, so that a later rate change continues seamlessly).
    private var bypass: Bool
    /// Aligned engine output frames still to drop because the bypass delivered them.
    private var engineBehind = 0
    /// Tests turn the bypass off to measure the engines themselves at rate 1.
    var bypassEnabled = true {
        didSet { bypass = bypass && bypassEnabled }
    }

    init(engine: any StretchEngine, rate: Double, compensates: Bool) {
        self.engine = engine
        self.rate = rate
        self.compensates = compensates
        bypass = compensates && rate == 1
        fifo = PlanarFIFO(channelCount: engine.channelCount)
        engine.setRate(rate)
    }

    private func dropBehind() {
        let k = min(engineBehind, fifo.count)
        fifo.drop(k)
        engineBehind -= k
    }

    /// Output frames the input pushed so far should produce (fractional).
    var expectedOutput: Double { owedBefore + Double(inputAtRate) / rate }

    func setRate(_ newRate: Double) {
        guard newRate != rate else { return }
        bypass = false
        owedBefore += Double(inputAtRate) / rate
        inputAtRate = 0
        rate = newRate
        engine.setRate(newRate)
    }

    private func discardStart() {
        if !started {
            started = true
            toDiscard = compensates ? engine.startDelay : 0
        }
        let k = min(toDiscard, fifo.count)
        fifo.drop(k)
        toDiscard -= k
    }

    func process(_ input: AudioBuffer) -> AudioBuffer {
        guard let ready = push(input) else { return input }
        return fifo.pop(ready)
    }

    /// `process(_:)` appending the output to `output` instead of returning it (one copy less).
    func process(_ input: AudioBuffer, into output: inout PlanarFIFO) {
        guard let ready = push(input) else { return output.append(input) }
        output.move(ready, from: &fifo)
    }

    /// Pushes `input` into the engine and counts what is delivered: the number of frames at the
    /// front of `fifo` that are ready, or nil when the bypass delivers `input` itself.
    private func push(_ input: AudioBuffer) -> Int? {
        precondition(input.channelCount == engine.channelCount, "channel count differs from the processor's")
        inputAtRate += input.frameCount
        engine.push(input, into: &fifo)
        if !started { discardStart() }
        if !compensates {
            delivered += fifo.count
            return fifo.count
        }
        discardStart()
        if bypass {
            engineBehind += input.frameCount
            dropBehind()
            delivered += input.frameCount
            return nil
        }
        dropBehind()
        let ready = min(max(0, Int(expectedOutput.rounded(.down)) - delivered), fifo.count)
        delivered += ready
        return ready
    }

    func finish() -> AudioBuffer {
        if bypass {
            delivered = Int(expectedOutput.rounded(.toNearestOrAwayFromZero))
            return AudioBuffer(channelCount: engine.channelCount)
        }
        engine.finish(into: &fifo)
        if !started { discardStart() }
        if !compensates {
            delivered += fifo.count
            return fifo.pop(fifo.count)
        }
        discardStart()
        dropBehind()
        let target = Int(expectedOutput.rounded(.toNearestOrAwayFromZero))
        var out = fifo.pop(max(0, target - delivered))
        out.resize(to: max(0, target - delivered))
        delivered = target
        fifo.removeAll()
        return out
    }

    /// `reset()` to start again at `newRate`, as a stream made at that rate would.
    func restart(at newRate: Double) {
        rate = newRate
        engine.setRate(newRate)
        reset()
    }

    func reset() {
        engine.reset()
        engine.setRate(rate)
        owedBefore = 0
        inputAtRate = 0
        delivered = 0
        toDiscard = 0
        started = false
        bypass = compensates && rate == 1 && bypassEnabled
        engineBehind = 0
        fifo.removeAll()
    }

    /// Offline rendering through the streaming path, in blocks.
    func stretchWhole(_ input: AudioBuffer, block: Int = 8192) -> AudioBuffer {
        reset()
        var out = AudioBuffer(channelCount: engine.channelCount)
        var start = 0
        while start < input.frameCount {
            let n = min(block, input.frameCount - start)
            out.append(process(input.slice(start..<(start + n))))
            start += n
        }
        out.append(finish())
        reset()
        return out
    }
}
