import SlomoCore

/// One control of a camera as V4L2 describes it (`VIDIOC_QUERYCTRL`, `VIDIOC_QUERYMENU`,
/// `VIDIOC_G_CTRL`): AVCaptureDevice's exposure, focus and white-balance properties on Linux.
public struct CameraControl: Hashable, Sendable, Encodable {
    /// What kind of value the control takes.
    public enum Kind: String, Hashable, Sendable, Encodable {
        case integer, boolean, menu, button, integer64, string, bitmask, integerMenu, other
    }

    /// One choice of a menu control: its value and its name (or number, for integer menus).
    public struct MenuEntry: Hashable, Sendable, Encodable {
        public let value: Int64
        public let name: String
    }

    /// The control's state flags (`V4L2_CTRL_FLAG_*`).
    public struct Flags: OptionSet, Hashable, Sendable, Encodable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let disabled = Flags(rawValue: 0x0001)
        public static let grabbed = Flags(rawValue: 0x0002)
        public static let readOnly = Flags(rawValue: 0x0004)
        public static let update = Flags(rawValue: 0x0008)
        /// Set while another control (usually its automatic mode) makes this one ineffective.
        public static let inactive = Flags(rawValue: 0x0010)
        public static let slider = Flags(rawValue: 0x0020)
        public static let writeOnly = Flags(rawValue: 0x0040)
        public static let volatile = Flags(rawValue: 0x0080)

        /// The flags' names as `v4l2-ctl` prints them.
        public var names: [String] {
            [(Flags.disabled, "disabled"), (.grabbed, "grabbed"), (.readOnly, "read-only"), (.update, "update"),
             (.inactive, "inactive"), (.slider, "slider"), (.writeOnly, "write-only"), (.volatile, "volatile")]
                .filter { contains($0.0) }.map(\.1)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(names)
        }
    }

    /// The V4L2 control id (`V4L2_CID_*`).
    public let id: UInt32
    /// The name `v4l2-ctl` and `--control` use: the driver's name in lower case with words
    /// joined by underscores (`exposure_time_absolute`).
    public let name: String
    /// The driver's own name (`Exposure Time, Absolute`).
    public let label: String
    /// The group it belongs to (`Camera Controls`).
    public let group: String
    public let kind: Kind
    public let minimum: Int64
    public let maximum: Int64
    public let step: Int64
    public let defaultValue: Int64
    /// The value now; nil for controls that cannot be read (buttons, write-only, strings).
    public var value: Int64?
    /// The choices of a menu control (only the values the driver accepts).
    public let menu: [MenuEntry]
    public var flags: Flags

    public init(id: UInt32, name: String, label: String, group: String, kind: Kind, minimum: Int64, maximum: Int64,
                step: Int64, defaultValue: Int64, value: Int64?, menu: [MenuEntry] = [], flags: Flags = []) {
        self.id = id
        self.name = name
        self.label = label
        self.group = group
        self.kind = kind
        self.minimum = minimum
        self.maximum = maximum
        self.step = step
        self.defaultValue = defaultValue
        self.value = value
        self.menu = menu
        self.flags = flags
    }

    /// `v4l2-ctl`'s name for a driver's control name: `Exposure Time, Absolute` →
    /// `exposure_time_absolute` (letters and digits kept, everything else one underscore).
    public static func identifier(for label: String) -> String {
        var result = ""
        var pendingSeparator = false
        for character in label.lowercased() {
            if character.isLetter || character.isNumber {
                if pendingSeparator && !result.isEmpty { result.append("_") }
                pendingSeparator = false
                result.append(character)
            } else {
                pendingSeparator = true
            }
        }
        return result
    }

    /// True when a value can be written (not read-only, disabled, grabbed or a button-less kind).
    public var isWritable: Bool {
        flags.isDisjoint(with: [.readOnly, .disabled, .grabbed]) && [.integer, .boolean, .menu, .integerMenu, .integer64, .bitmask, .button].contains(kind)
    }

    /// The menu entry's name for `value`, if this is a menu control that has one.
    public func menuName(of value: Int64) -> String? { menu.first { $0.value == value }?.name }

    /// What values it takes, for messages: `1…5000 (step 1)`, `0 or 1`, `0: Disabled, 1: 50 Hz`.
    public var allowedValues: String {
        switch kind {
        case .boolean: return "0 or 1"
        case .menu, .integerMenu: return menu.map { "\($0.value): \($0.name)" }.joined(separator: ", ")
        default: return "\(minimum)…\(maximum)" + (step > 1 ? " in steps of \(step)" : "")
        }
    }

    /// The value as text: a menu entry's name beside its number.
    public func describe(_ value: Int64) -> String {
        menuName(of: value).map { "\(value) (\($0))" } ?? "\(value)"
    }
}

/// Well-known V4L2 control ids (`linux/v4l2-controls.h`): the friendly camera settings map
/// to these, whatever the driver names them (older kernels say `exposure_absolute`, newer
/// `exposure_time_absolute`).
public enum CameraControlID {
    public static let autoWhiteBalance: UInt32 = 0x0098_090C
    public static let powerLineFrequency: UInt32 = 0x0098_0918
    public static let whiteBalanceTemperature: UInt32 = 0x0098_091A
    public static let exposureMode: UInt32 = 0x009A_0901
    public static let exposureTime: UInt32 = 0x009A_0902
    public static let exposurePriority: UInt32 = 0x009A_0903
    public static let focusAbsolute: UInt32 = 0x009A_090A
    public static let focusAuto: UInt32 = 0x009A_090C
    public static let flashLEDMode: UInt32 = 0x009C_0901

    /// `V4L2_EXPOSURE_MANUAL` and `V4L2_EXPOSURE_SHUTTER_PRIORITY`: exposure time set by hand
    /// (the iris manual or automatic).
    static let manualExposure: Int64 = 1, shutterPriorityExposure: Int64 = 2
    /// `V4L2_CID_POWER_LINE_FREQUENCY`'s values.
    static let flickerOff: Int64 = 0, flicker50: Int64 = 1, flicker60: Int64 = 2
    /// `V4L2_FLASH_LED_MODE_NONE` and `_TORCH`.
    static let ledOff: Int64 = 0, ledTorch: Int64 = 2
    /// `V4L2_CID_EXPOSURE_ABSOLUTE` counts in 100 µs.
    static let exposureUnitsPerSecond: Int64 = 10_000
}
