import SlomoMedia

extension AudioRing {
    /// Times the device found the ring empty while playing.
    var underruns: Int { underrunCount.load(ordering: .relaxed) }
    /// Frames handed to the device so far (silence included).
    var deviceFrames: Int { timeline.snapshot().deviceFrames }

    /// Pauses (the device plays silence, item time holds where it is heard) or resumes.
    func setPaused(_ pause: Bool) {
        if pause { heldTime.store(now().itemTime.bitPattern, ordering: .relaxed) }
        paused.store(pause, ordering: .releasing)
    }

    /// The item time being heard now, and the device frame being heard.
    func now() -> (itemTime: Double, deviceFrame: Int) {
        let device = timeline.snapshot()
        let frame = audibleFrame(device, now: MonotonicClock.nanoseconds())
        let held = Double(bitPattern: heldTime.load(ordering: .relaxed))
        // Paused, or a flush the device has not seen yet: the held time.
        if paused.load(ordering: .acquiring) || flushes.version != device.flushesApplied { return (held, frame) }
        guard let anchor = device.anchors.last(where: { $0.start <= frame }) ?? device.anchors.first else { return (held, frame) }
        return (frame < anchor.start ? anchor.itemTime : anchor.itemTime(at: frame), frame)
    }

    private func audibleFrame(_ device: DeviceTimeline.Snapshot, now: Int64) -> Int {
        let buffer = device.deviceFrames - device.callbackStart
        let elapsed = Int(Double(now - device.callbackNanos) * 1e-9 * Double(sampleRate))
        return device.callbackStart - latencyFrames + min(max(elapsed, 0), buffer)
    }
}
