import CV4L2
import Foundation

extension RecordedV4L2Device {
    /// Adds the controls `v4l2-ctl --list-ctrls-menus` printed for a real camera, so that
    /// listing and setting them is tested where no camera exists. Writes behave as UVC's do:
    /// values outside the range are refused (`ERANGE`), read-only ones too (`EACCES`), and so is
    /// a manual value while its automatic mode is on (`EACCES`: the exposure time while
    /// `auto_exposure` is not manual, focus while autofocus runs, the white balance temperature
    /// while it is automatic) — the order in which settings are written matters, as on a camera.
    public func loadControls(listCtrlsMenus text: String) throws(CaptureError) {
        var group = ""
        var parsed: [CameraControl] = []
        var menu: [CameraControl.MenuEntry] = []
        func finishMenu() {
            guard var last = parsed.popLast() else { return }
            last = CameraControl(id: last.id, name: last.name, label: last.label, group: last.group, kind: last.kind,
                                 minimum: last.minimum, maximum: last.maximum, step: last.step, defaultValue: last.defaultValue,
                                 value: last.value, menu: menu, flags: last.flags)
            parsed.append(last)
            menu = []
        }
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty else { continue }
            if let entry = Self.menuEntry(line) {
                guard !parsed.isEmpty else { throw CaptureError(.invalidInput, "a menu entry before any control: \(line)") }
                menu.append(entry)
            } else if let control = try Self.control(line, group: group) {
                if !menu.isEmpty { finishMenu() }
                parsed.append(control)
            } else if line.hasSuffix("Controls") {
                if !menu.isEmpty { finishMenu() }
                group = line
            } else {
                throw CaptureError(.invalidInput, "cannot read the control line: \(line)")
            }
        }
        if !menu.isEmpty { finishMenu() }
        controls = parsed.sorted { $0.id < $1.id }
    }

    /// `0: Disabled` (a menu entry line), else nil.
    private static func menuEntry(_ line: String) -> CameraControl.MenuEntry? {
        guard let colon = line.firstIndex(of: ":"), let value = Int64(line[..<colon]) else { return nil }
        return CameraControl.MenuEntry(value: value, name: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }

    /// `exposure_time_absolute 0x009a0902 (int) : min=1 max=5000 step=1 default=157 value=157 flags=inactive`.
    private static func control(_ line: String, group: String) throws(CaptureError) -> CameraControl? {
        let words = line.split(separator: " ", omittingEmptySubsequences: true)
        guard words.count >= 3, words[1].hasPrefix("0x"), let id = UInt32(words[1].dropFirst(2), radix: 16),
              let colon = line.firstIndex(of: ":") else { return nil }
        let type = words[2].trimmingCharacters(in: CharacterSet(charactersIn: "()"))
        let kinds: [String: CameraControl.Kind] = ["int": .integer, "bool": .boolean, "menu": .menu, "button": .button,
                                                   "int64": .integer64, "str": .string, "bitmask": .bitmask, "intmenu": .integerMenu]
        guard let kind = kinds[type] else { throw CaptureError(.invalidInput, "unknown control type '\(type)': \(line)") }
        var fields: [String: String] = [:]
        var flags: CameraControl.Flags = []
        let rest = line[line.index(after: colon)...]
        if let flagsRange = rest.range(of: "flags=") {
            let names = rest[flagsRange.upperBound...].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            for name in names { flags.formUnion(CameraControl.Flags(named: name)) }
        }
        for field in rest.split(separator: " ") where field.contains("=") && !field.hasPrefix("flags=") {
            let parts = field.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        func number(_ key: String, _ fallback: Int64) -> Int64 {
            guard let text = fields[key] else { return fallback }
            return text.hasPrefix("0x") ? Int64(text.dropFirst(2), radix: 16) ?? fallback : Int64(text) ?? fallback
        }
        let name = String(words[0])
        let maximum = number("max", kind == .boolean ? 1 : 0)
        return CameraControl(id: id, name: name, label: name, group: group, kind: kind, minimum: number("min", 0),
                             maximum: maximum, step: number("step", kind == .menu || kind == .integerMenu ? 0 : 1),
                             defaultValue: number("default", 0), value: fields["value"].flatMap { _ in number("value", 0) },
                             flags: flags)
    }

    /// Answers the control ioctls from the recorded controls; `ENOTTY` for anything else.
    func answerControlRequest(_ request: UInt, _ argument: UnsafeMutableRawPointer) -> Int32 {
        let invalid = slomo_errno_einval()
        switch request {
        case V4L2Request.queryControl:
            let query = argument.assumingMemoryBound(to: v4l2_queryctrl.self)
            let wanted = query.pointee.id
            let entries = classedEntries()
            let found: (control: CameraControl, isClass: Bool)?
            if wanted & slomo_v4l2_ctrl_flag_next_ctrl() != 0 {
                let after = wanted & ~slomo_v4l2_ctrl_flag_next_ctrl()
                found = entries.first { $0.control.id > after }
            } else {
                found = entries.first { $0.control.id == wanted }
            }
            guard let found else { return invalid }
            var answer = v4l2_queryctrl()
            answer.id = found.control.id
            Self.write(found.isClass ? found.control.group : found.control.label, into: &answer.name)
            if found.isClass {
                answer.type = V4L2_CTRL_TYPE_CTRL_CLASS.rawValue
                answer.flags = 0x0004 | 0x0040
            } else {
                let control = current(found.control)
                answer.type = Self.type(of: control.kind)
                answer.minimum = Int32(clamping: control.minimum)
                answer.maximum = Int32(clamping: control.maximum)
                answer.step = Int32(clamping: control.step)
                answer.default_value = Int32(clamping: control.defaultValue)
                answer.flags = control.flags.rawValue
            }
            query.pointee = answer
            return 0
        case V4L2Request.queryMenu:
            let item = argument.assumingMemoryBound(to: v4l2_querymenu.self)
            guard let control = controls.first(where: { $0.id == item.pointee.id }),
                  let entry = control.menu.first(where: { $0.value == Int64(item.pointee.index) }) else { return invalid }
            if control.kind == .integerMenu {
                item.pointee.value = Int64(entry.name) ?? 0
            } else {
                Self.write(entry.name, into: &item.pointee.name)
            }
            return 0
        case V4L2Request.getControl:
            let control = argument.assumingMemoryBound(to: v4l2_control.self)
            guard let recorded = controls.first(where: { $0.id == control.pointee.id }), let value = recorded.value else { return invalid }
            control.pointee.value = Int32(clamping: value)
            return 0
        case V4L2Request.setControl:
            let control = argument.assumingMemoryBound(to: v4l2_control.self)
            guard let index = controls.firstIndex(where: { $0.id == control.pointee.id }) else { return invalid }
            let recorded = current(controls[index])
            let value = Int64(control.pointee.value)
            if !recorded.flags.isDisjoint(with: [.readOnly, .inactive, .disabled]) { return slomo_errno_eacces() }
            let inRange = recorded.kind == .menu || recorded.kind == .integerMenu
                ? recorded.menu.contains { $0.value == value }
                : (recorded.minimum...recorded.maximum).contains(value)
            guard inRange else { return slomo_errno_erange() }
            controls[index].value = value
            return 0
        case V4L2Request.setPriority:
            priority = argument.assumingMemoryBound(to: UInt32.self).pointee
            return 0
        default:
            return slomo_errno_enotty()
        }
    }

    /// A control with `inactive` set the way UVC sets it from its automatic mode's value now.
    private func current(_ control: CameraControl) -> CameraControl {
        let governing: [UInt32: (UInt32, (Int64) -> Bool)] = [
            CameraControlID.exposureTime: (CameraControlID.exposureMode, {
                $0 == CameraControlID.manualExposure || $0 == CameraControlID.shutterPriorityExposure
            }),
            CameraControlID.focusAbsolute: (CameraControlID.focusAuto, { $0 == 0 }),
            CameraControlID.whiteBalanceTemperature: (CameraControlID.autoWhiteBalance, { $0 == 0 }),
        ]
        guard let (master, isManual) = governing[control.id],
              let mode = controls.first(where: { $0.id == master })?.value else { return control }
        var result = control
        if isManual(mode) { result.flags.remove(.inactive) } else { result.flags.insert(.inactive) }
        return result
    }

    /// The controls with each class's entry (`User Controls`, id class|1) before its first one,
    /// in id order, as `VIDIOC_QUERYCTRL` walks them.
    private func classedEntries() -> [(control: CameraControl, isClass: Bool)] {
        var result: [(control: CameraControl, isClass: Bool)] = []
        var lastClass: UInt32?
        for control in controls {
            let controlClass = control.id & 0x0FFF_0000
            if controlClass != lastClass, !control.group.isEmpty {
                let header = CameraControl(id: controlClass | 1, name: "", label: control.group, group: control.group,
                                           kind: .other, minimum: 0, maximum: 0, step: 0, defaultValue: 0, value: nil)
                result.append((header, true))
            }
            lastClass = controlClass
            result.append((control, false))
        }
        return result
    }

    private static func type(of kind: CameraControl.Kind) -> UInt32 {
        switch kind {
        case .integer: V4L2_CTRL_TYPE_INTEGER.rawValue
        case .boolean: V4L2_CTRL_TYPE_BOOLEAN.rawValue
        case .menu: V4L2_CTRL_TYPE_MENU.rawValue
        case .button: V4L2_CTRL_TYPE_BUTTON.rawValue
        case .integer64: V4L2_CTRL_TYPE_INTEGER64.rawValue
        case .string: V4L2_CTRL_TYPE_STRING.rawValue
        case .bitmask: V4L2_CTRL_TYPE_BITMASK.rawValue
        case .integerMenu: V4L2_CTRL_TYPE_INTEGER_MENU.rawValue
        case .other: 0
        }
    }
}

extension CameraControl.Flags {
    /// A flag from its `v4l2-ctl` name (`inactive`, `read-only`); empty for names slomo ignores
    /// (`has-min-max`).
    init(named name: String) {
        self = [.disabled, .grabbed, .readOnly, .update, .inactive, .slider, .writeOnly, .volatile]
            .first { $0.names == [name] } ?? []
    }
}
