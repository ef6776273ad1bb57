import CV4L2
import Glibc

/// Reads and sets a camera's controls through the ioctl seam (`V4L2Device`):
/// `VIDIOC_QUERYCTRL` walked with `V4L2_CTRL_FLAG_NEXT_CTRL`, `VIDIOC_QUERYMENU` for each menu
/// value, `VIDIOC_G_CTRL`/`VIDIOC_S_CTRL` for values and `VIDIOC_S_PRIORITY` to hold the device.
public enum V4L2Controls {
    /// Every control the device has, in the driver's order, grouped under its class's name.
    public static func list(_ device: any V4L2Device) -> [CameraControl] {
        var controls: [CameraControl] = []
        var group = ""
        var next = slomo_v4l2_ctrl_flag_next_ctrl()
        for _ in 0..<4096 {
            var query = v4l2_queryctrl()
            query.id = next
            guard call(device, V4L2Request.queryControl, &query) == 0 else { break }
            next = query.id | slomo_v4l2_ctrl_flag_next_ctrl()
            let label = V4L2Enumeration.text(of: &query.name)
            if query.type == V4L2_CTRL_TYPE_CTRL_CLASS.rawValue {
                group = label
                continue
            }
            let kind = kind(of: query.type)
            var flags = CameraControl.Flags(rawValue: query.flags & 0xFF)
            if kind == .other { flags.insert(.readOnly) }
            let readable = flags.isDisjoint(with: [.writeOnly, .disabled]) && [.integer, .boolean, .menu, .integerMenu, .bitmask].contains(kind)
            controls.append(CameraControl(
                id: query.id, name: CameraControl.identifier(for: label), label: label, group: group, kind: kind,
                minimum: Int64(query.minimum), maximum: Int64(query.maximum), step: Int64(query.step),
                defaultValue: Int64(query.default_value), value: readable ? value(of: query.id, on: device) : nil,
                menu: kind == .menu || kind == .integerMenu ? menu(of: query, on: device, integers: kind == .integerMenu) : [],
                flags: flags))
        }
        return controls
    }

    /// The value of control `id` now, or nil when the driver does not answer.
    public static func value(of id: UInt32, on device: any V4L2Device) -> Int64? {
        var control = v4l2_control(id: id, value: 0)
        return call(device, V4L2Request.getControl, &control) == 0 ? Int64(control.value) : nil
    }

    /// Sets control `id`; returns 0 or the errno value the driver refused it with.
    public static func set(_ id: UInt32, to value: Int64, on device: any V4L2Device) -> Int32 {
        var control = v4l2_control(id: id, value: Int32(clamping: value))
        return call(device, V4L2Request.setControl, &control)
    }

    /// Asks for `V4L2_PRIORITY_RECORD` on this file handle (no other handle may change the
    /// device while it is held) or gives it back (`V4L2_PRIORITY_DEFAULT`); 0 or the errno value.
    public static func holdForRecording(_ hold: Bool, on device: any V4L2Device) -> Int32 {
        var priority = hold ? V4L2_PRIORITY_RECORD : V4L2_PRIORITY_DEFAULT
        return withUnsafeMutableBytes(of: &priority) { device.control(V4L2Request.setPriority, $0.baseAddress!) }
    }

    private static func menu(of query: v4l2_queryctrl, on device: any V4L2Device, integers: Bool) -> [CameraControl.MenuEntry] {
        guard query.minimum <= query.maximum, query.maximum - query.minimum < 1024 else { return [] }
        var entries: [CameraControl.MenuEntry] = []
        for index in query.minimum...query.maximum {
            var item = v4l2_querymenu()
            item.id = query.id
            item.index = UInt32(bitPattern: index)
            guard call(device, V4L2Request.queryMenu, &item) == 0 else { continue }  // gaps are allowed
            let name = integers ? String(item.value) : V4L2Enumeration.text(of: &item.name)
            entries.append(CameraControl.MenuEntry(value: Int64(index), name: name))
        }
        return entries
    }

    private static func kind(of type: UInt32) -> CameraControl.Kind {
        switch type {
        case V4L2_CTRL_TYPE_INTEGER.rawValue: .integer
        case V4L2_CTRL_TYPE_BOOLEAN.rawValue: .boolean
        case V4L2_CTRL_TYPE_MENU.rawValue: .menu
        case V4L2_CTRL_TYPE_BUTTON.rawValue: .button
        case V4L2_CTRL_TYPE_INTEGER64.rawValue: .integer64
        case V4L2_CTRL_TYPE_STRING.rawValue: .string
        case V4L2_CTRL_TYPE_BITMASK.rawValue: .bitmask
        case V4L2_CTRL_TYPE_INTEGER_MENU.rawValue: .integerMenu
        default: .other
        }
    }

    private static func call<T>(_ device: any V4L2Device, _ request: UInt, _ value: inout T) -> Int32 {
        withUnsafeMutableBytes(of: &value) { device.control(request, $0.baseAddress!) }
    }
}
