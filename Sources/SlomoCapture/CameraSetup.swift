import SlomoCore

/// What a camera's controls are set to before a recording: the requests resolved against the
/// controls the camera has, checked against their ranges, ordered so that each automatic mode
/// is switched off before the manual value it governs is written (UVC refuses the value
/// otherwise), with a note for each decision a user would want to hear about.
public struct CameraSetup: Hashable, Sendable {
    /// One control write.
    public struct Assignment: Hashable, Sendable {
        public let control: CameraControl
        public let value: Int64
        /// What asked for it (`--exposure 1/500`), or why slomo did on its own.
        public let reason: String
    }

    /// The writes, in the order they are made.
    public let assignments: [Assignment]
    /// Sentences for the user: rounding to the camera's units, automatic modes turned off.
    public let notes: [String]

    /// Controls that switch an automatic mode, written first.
    private static let modeControls: [UInt32] = [CameraControlID.exposureMode, CameraControlID.exposurePriority,
                                                 CameraControlID.focusAuto, CameraControlID.autoWhiteBalance]

    /// Resolves `requests` against `controls` (the camera's, `V4L2Controls.list`) for a
    /// recording at `frameRate` (the format's rate, when one was asked for). `camera` names
    /// the device in messages. Every problem is an `.invalidControl` error naming the option,
    /// the control and what it accepts.
    public init(_ requests: [CameraControlRequest], controls: [CameraControl], frameRate: Rational?,
                camera: String) throws(CaptureError) {
        var resolver = Resolver(controls: controls, camera: camera)
        for request in requests { try resolver.resolve(request, frameRate: frameRate) }
        try resolver.keepFrameRate(frameRate)
        let ordered = resolver.assignments.enumerated().sorted { a, b in
            let aMode = Self.modeControls.contains(a.element.control.id), bMode = Self.modeControls.contains(b.element.control.id)
            return aMode != bMode ? aMode : a.offset < b.offset
        }
        assignments = ordered.map(\.element)
        notes = resolver.notes
    }

    /// The request-to-control mapping, one request at a time.
    private struct Resolver {
        let controls: [CameraControl]
        let camera: String
        var assignments: [Assignment] = []
        var notes: [String] = []

        init(controls: [CameraControl], camera: String) {
            self.controls = controls
            self.camera = camera
        }

        func control(_ id: UInt32) -> CameraControl? { controls.first { $0.id == id } }

        /// The control a friendly setting needs, or an error saying the camera has none.
        func required(_ id: UInt32, for request: CameraControlRequest, what: String) throws(CaptureError) -> CameraControl {
            guard let control = control(id) else {
                throw CaptureError(.invalidControl, "\(request): \(camera) has no \(what) control", hint: .listControls)
            }
            return control
        }

        /// Records a write after checking it; the same control asked twice must agree.
        mutating func assign(_ control: CameraControl, _ value: Int64, because reason: String) throws(CaptureError) {
            guard control.isWritable else {
                let state = control.flags.intersection([.readOnly, .disabled, .grabbed]).names.joined(separator: ", ")
                throw CaptureError(.invalidControl, "\(reason): \(control.name) on \(camera) cannot be set (\(state))")
            }
            try Self.check(value, fits: control, reason: reason)
            if let earlier = assignments.first(where: { $0.control.id == control.id }) {
                guard earlier.value == value else {
                    throw CaptureError(.invalidControl, "\(reason) sets \(control.name) to \(control.describe(value)), "
                                       + "but \(earlier.reason) sets it to \(control.describe(earlier.value)): give one of them")
                }
                return
            }
            assignments.append(Assignment(control: control, value: value, reason: reason))
        }

        static func check(_ value: Int64, fits control: CameraControl, reason: String) throws(CaptureError) {
            let fits: Bool
            switch control.kind {
            case .menu, .integerMenu: fits = control.menu.contains { $0.value == value }
            case .button: fits = true
            default: fits = (control.minimum...control.maximum).contains(value)
                && (control.step <= 1 || (value - control.minimum) % control.step == 0)
            }
            guard fits else {
                throw CaptureError(.invalidControl, "\(reason): \(control.name) takes \(control.allowedValues), not \(value)")
            }
        }

        mutating func resolve(_ request: CameraControlRequest, frameRate: Rational?) throws(CaptureError) {
            let reason = request.description
            switch request {
            case .control(let name, let text):
                guard let control = controls.first(where: { $0.name == name || $0.name == name.lowercased() }) else {
                    let names = controls.map(\.name)
                    throw CaptureError(.invalidControl, "\(reason): \(camera) has no control '\(name)'"
                                       + (NearestName.nearest(name, in: names).map { " (did you mean \($0)?)" } ?? "")
                                       + "; its controls: \(names.joined(separator: ", "))")
                }
                try assign(control, try Self.value(text, of: control, reason: reason), because: reason)
            case .exposure(let seconds):
                let time = try required(CameraControlID.exposureTime, for: request, what: "exposure time")
                if let mode = control(CameraControlID.exposureMode) {
                    try assign(mode, CameraControlID.manualExposure, because: reason)
                }
                let exact = seconds * Rational(CameraControlID.exposureUnitsPerSecond)
                let units = exact.numerator / exact.denominator
                guard units >= max(1, time.minimum) else {
                    throw CaptureError(.invalidControl, "\(reason): shorter than \(camera)'s shortest exposure, "
                                       + "\(Self.seconds(time.minimum)) (\(time.name) \(time.allowedValues), in 100 µs)")
                }
                guard units <= time.maximum else {
                    throw CaptureError(.invalidControl, "\(reason): longer than \(camera)'s longest exposure, "
                                       + "\(Self.seconds(time.maximum)) (\(time.name) \(time.allowedValues), in 100 µs)")
                }
                if let frameRate, seconds > Rational(frameRate.denominator, frameRate.numerator) {
                    throw CaptureError(.invalidControl, "\(reason): longer than a frame at \(frameRate.doubleValue.formatted()) fps "
                                       + "(1/\(frameRate.doubleValue.formatted()) s); the camera would lower its frame rate. "
                                       + "Use at most --exposure \(frameRate.denominator == 1 ? "1/\(frameRate.numerator)" : "\(frameRate.denominator)/\(frameRate.numerator)")")
                }
                if Rational(units) != exact {
                    notes.append("\(reason): the camera counts exposure in 100 µs, so \(time.name)=\(units) (\(Self.seconds(units)))")
                }
                try assign(time, units, because: reason)
            case .focus(let focus):
                let auto = control(CameraControlID.focusAuto)
                switch focus {
                case .auto:
                    try assign(try required(CameraControlID.focusAuto, for: request, what: "autofocus"), 1, because: reason)
                case .locked:
                    try assign(try required(CameraControlID.focusAuto, for: request, what: "autofocus"), 0, because: reason)
                case .distance(let value):
                    let absolute = try required(CameraControlID.focusAbsolute, for: request, what: "focus position")
                    if let auto { try assign(auto, 0, because: reason) }
                    try assign(absolute, value, because: reason)
                }
            case .whiteBalance(let balance):
                let auto = control(CameraControlID.autoWhiteBalance)
                switch balance {
                case .auto:
                    try assign(try required(CameraControlID.autoWhiteBalance, for: request, what: "automatic white balance"), 1, because: reason)
                case .locked:
                    try assign(try required(CameraControlID.autoWhiteBalance, for: request, what: "automatic white balance"), 0, because: reason)
                case .kelvin(let kelvin):
                    let temperature = try required(CameraControlID.whiteBalanceTemperature, for: request, what: "white balance temperature")
                    if let auto { try assign(auto, 0, because: reason) }
                    try assign(temperature, kelvin, because: reason)
                }
            case .flicker(let flicker):
                let control = try required(CameraControlID.powerLineFrequency, for: request, what: "power line frequency")
                let value = switch flicker {
                case .off: CameraControlID.flickerOff
                case .hz50: CameraControlID.flicker50
                case .hz60: CameraControlID.flicker60
                }
                try assign(control, value, because: reason)
            case .torch(let on):
                let control = try required(CameraControlID.flashLEDMode, for: request, what: "torch (flash LED mode)")
                try assign(control, on ? CameraControlID.ledTorch : CameraControlID.ledOff, because: reason)
            }
        }

        /// A camera in automatic exposure with exposure priority on may lower its frame rate in
        /// dim light (most UVC cameras fall from 120 fps to 30): when a rate was asked for,
        /// priority is turned off, unless the user set it.
        mutating func keepFrameRate(_ frameRate: Rational?) throws(CaptureError) {
            guard let frameRate, let priority = control(CameraControlID.exposurePriority), priority.isWritable,
                  priority.value.map({ $0 != 0 }) ?? false,
                  !assignments.contains(where: { $0.control.id == priority.id }) else { return }
            let mode = assignments.first { $0.control.id == CameraControlID.exposureMode }?.value
                ?? control(CameraControlID.exposureMode)?.value
            guard mode != CameraControlID.manualExposure, mode != CameraControlID.shutterPriorityExposure else { return }
            let rate = frameRate.doubleValue.formatted()
            try assign(priority, 0, because: "--format …@\(rate)")
            notes.append("\(priority.name) was on: in dim light the camera could lower its rate below \(rate) fps; "
                         + "turned off (--control \(priority.name)=1 keeps it on)")
        }

        /// A value as typed for a control: a number, on/off for a switch, a menu entry's name.
        static func value(_ text: String, of control: CameraControl, reason: String) throws(CaptureError) -> Int64 {
            if let number = Int64(text) { return number }
            if control.kind == .boolean {
                switch text.lowercased() {
                case "on", "true", "yes": return 1
                case "off", "false", "no": return 0
                default: break
                }
            }
            if let entry = control.menu.first(where: { $0.name.lowercased() == text.lowercased() }) { return entry.value }
            throw CaptureError(.invalidControl, "\(reason): \(control.name) takes \(control.allowedValues), not '\(text)'")
        }

        /// Seconds of `units` × 100 µs as a shutter speed: `1/500 s`, `0.5 s`.
        static func seconds(_ units: Int64) -> String {
            let seconds = Rational(units, CameraControlID.exposureUnitsPerSecond)
            if seconds.numerator == 1 { return "1/\(seconds.denominator) s" }
            return "\(MediaTime(seconds: seconds).formattedSeconds(fractionDigits: 4)) s"
        }
    }
}
