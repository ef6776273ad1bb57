import Foundation

extension CameraControl {
    /// Controls as `v4l2-ctl --list-ctrls-menus` prints them (the listing camera users know,
    /// and the form `RecordedV4L2Device.loadControls` reads back): a heading per group, one
    /// line per control with its range, default, value and flags, and menu entries below.
    public static func listing(_ controls: [CameraControl]) -> String {
        var lines: [String] = []
        var group: String?
        for control in controls {
            if control.group != group {
                lines += ["", control.group, ""]
                group = control.group
            }
            lines.append(control.listingLine)
            lines += control.menu.map { "\t\t\t\t\($0.value): \($0.name)" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `    exposure_time_absolute 0x009a0902 (int)    : min=3 max=2047 step=1 default=250 value=250 flags=inactive`.
    var listingLine: String {
        let type = switch kind {
        case .integer: "int"
        case .boolean: "bool"
        case .menu: "menu"
        case .button: "button"
        case .integer64: "int64"
        case .string: "str"
        case .bitmask: "bitmask"
        case .integerMenu: "intmenu"
        case .other: "unknown"
        }
        let name = String(repeating: " ", count: max(0, 31 - self.name.count)) + self.name
        var fields: [String]
        switch kind {
        case .boolean: fields = ["default=\(defaultValue)"]
        case .menu, .integerMenu: fields = ["min=\(minimum)", "max=\(maximum)", "default=\(defaultValue)"]
        case .button: fields = []
        case .bitmask: fields = [String(format: "max=0x%08llx", maximum), String(format: "default=0x%08llx", defaultValue)]
        default: fields = ["min=\(minimum)", "max=\(maximum)", "step=\(step)", "default=\(defaultValue)"]
        }
        if let value {
            fields.append("value=\(value)" + (menuName(of: value).map { " (\($0))" } ?? ""))
        }
        if !flags.names.isEmpty { fields.append("flags=" + flags.names.joined(separator: ", ")) }
        return "\(name) \(String(format: "0x%08x", id)) (\(type))\(String(repeating: " ", count: max(0, 7 - type.count))): "
            + fields.joined(separator: " ")
    }
}
