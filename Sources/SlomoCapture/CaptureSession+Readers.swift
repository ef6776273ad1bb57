import Foundation
import SlomoMedia

/// The reader threads of a session: one per input, re-stamping each sample onto the session
/// clock and handing it to every output without waiting for them.
extension CaptureSession {
    /// Reads `source` until the session stops or the source ends, fails or stalls (reader
    /// thread). Samples are stamped on the session clock; a file is paced to its timestamps.
    func read(_ source: CaptureSource, _ wiring: Wiring) {
        source.claim()
        if !source.cycle.isEmpty { return replay(source, wiring) }
        let clock = wiring.clock
        let start = clock.now()
        var lastSample = start
        var firstSampleTime: Int64?
        var firstSourceTicks: Int64?
        let interval = source.frameRate.map { 1 / $0.doubleValue } ?? 0.02
        let stall = max(wiring.stallTimeout, 20 * interval)
        while isRunning {
            source.interrupt.setDeadline(afterSeconds: firstSampleTime == nil ? max(wiring.openTimeout, stall) : stall)
            let packet: Packet?
            do {
                packet = try source.demuxer.read()
            } catch {
                if !isRunning { break }
                if error.is(.tryAgain) {
                    if Double(clock.now() - lastSample) / 1e9 > stall {
                        stop(.deviceLost("\(source.input.label): no frames for \(Int(stall)) s"))
                        break
                    }
                    usleep(1000)
                    continue
                }
                let what = source.interrupt.isRaised ? "no data for \(Int(stall)) s" : error.message
                stop(.deviceLost("\(source.input.label): \(what)"))
                break
            }
            guard let packet else {
                if source.input.pacesToTimestamps {
                    stop(.sourceEnded("\(source.input.label): end of file"))
                } else {
                    stop(.deviceLost("\(source.input.label): the stream ended"))
                }
                break
            }
            guard packet.streamIndex == source.streamIndex else { continue }
            if source.input.pacesToTimestamps, let pts = packet.pts {
                // A file is read at its native rate, like `ffmpeg -re`.
                if firstSourceTicks == nil { firstSourceTicks = pts }
                let due = start + source.restamper.nanoseconds(pts - firstSourceTicks!)
                let wait = due - clock.now()
                if wait > 0 { usleep(UInt32(min(wait / 1000, 1_000_000))) }
            }
            let arrival = clock.now()
            lastSample = arrival
            if firstSampleTime == nil { firstSampleTime = arrival }
            if let decoder = source.decoder {
                do {
                    try decoder.send(packet)
                } catch {
                    continue  // a damaged sample: skip it, the stream goes on
                }
                while true {
                    let received: Frame?
                    do { received = try decoder.receive() } catch { break }
                    guard let frame = received else { break }
                    let time = source.restamper.sessionTime(pts: frame.pts ?? frame.bestEffortPTS, arrival: arrival)
                    deliver(frame: frame, packet: source.isRaw ? nil : packet, time: time, source: source, wiring)
                }
            } else {
                // Copied packets come in decoding order: their decoding times rise, their
                // presentation times do not where there are B-frames.
                let time = source.restamper.sessionTime(pts: packet.dts ?? packet.pts, arrival: arrival)
                deliver(frame: nil, packet: packet, time: time, source: source, wiring)
            }
        }
    }

    /// Releases the test pattern's pre-rendered cycle at its frame rate, by reference: no
    /// drawing, copying or allocating per frame. Like lavfi's `realtime`, a reader that was held
    /// up releases the frames it owes at once, stamped with their own spacing.
    private func replay(_ source: CaptureSource, _ wiring: Wiring) {
        let clock = wiring.clock
        let start = clock.now()
        var index: Int64 = 0
        while isRunning {
            let pts = index * source.cycleStep
            let wait = start + source.restamper.nanoseconds(pts) - clock.now()
            if wait > 0 {
                usleep(UInt32(min(wait / 1000, 100_000)))
                continue
            }
            let frame: Frame
            do { frame = try source.cycle[Int(index % Int64(source.cycle.count))].clone() } catch {
                stop(.failed("\(source.input.label): \(error)"))
                break
            }
            frame.pts = pts
            deliver(frame: frame, packet: nil, time: source.restamper.sessionTime(pts: pts, arrival: clock.now()), source: source, wiring)
            index += 1
        }
    }

    /// Hands a sample to every output, each its own reference (the last movie output takes a
    /// raw frame itself). A reference FFmpeg cannot make (out of memory) stops the session as
    /// failed.
    private func deliver(frame: sending Frame?, packet: Packet?, time: Int64, source: CaptureSource, _ wiring: Wiring) {
        shared.withLock { $0.received[source.index] += 1 }
        if source.isAudio, let frame { for meter in wiring.meters { meter.process(frame) } }
        do throws(FFmpegError) {
            if !source.isAudio, let frame {
                for output in wiring.frameOutputs { output.offer(try frame.clone(), time: time, input: source.index) }
            }
            guard let last = wiring.movieOutputs.last else { return }
            let raw = source.isRaw ? frame : nil
            for output in wiring.movieOutputs.dropLast() {
                if let raw { try Self.offer(Self.reference(to: raw), to: output, from: source, at: time) }
                else if let packet { try Self.offer(Self.reference(to: packet), to: output, from: source, at: time) }
            }
            let payload: CapturedSample.Payload
            if let raw { payload = .frame(raw) }
            else if let packet { payload = try Self.reference(to: packet) }
            else { return }
            Self.offer(payload, to: last, from: source, at: time)
        } catch {
            stop(.failed("\(source.input.label): \(error)"))
        }
    }

    /// Offers `payload` to `output` as a sample of `source` at session time `time`.
    private static func offer(_ payload: sending CapturedSample.Payload, to output: MovieFileOutput, from source: CaptureSource,
                              at time: Int64) {
        output.offer(CapturedSample(payload: payload, input: source.index, time: time), isAudio: source.isAudio)
    }

    /// A new reference to `frame`, for one output.
    private static func reference(to frame: Frame) throws(FFmpegError) -> sending CapturedSample.Payload {
        .frame(try frame.clone())
    }

    /// A new reference to `packet`, for one output.
    private static func reference(to packet: Packet) throws(FFmpegError) -> sending CapturedSample.Payload {
        .packet(try packet.clone())
    }
}
