import CV4L2
import Glibc
import SlomoMedia

/// The ioctl seam of Video4Linux2: everything slomo asks a camera goes through `control`, so
/// that enumeration can be tested against recorded devices (`RecordedV4L2Device`) where no
/// camera exists.
public protocol V4L2Device: AnyObject {
    /// Performs one `VIDIOC_*` request on `argument` (the request's structure). Returns 0 on
    /// success or the errno value (`EINVAL` ends an enumeration).
    func control(_ request: UInt, _ argument: UnsafeMutableRawPointer) -> Int32
}

/// The `VIDIOC_*` request codes slomo uses (from the C shim: they are macros).
public enum V4L2Request {
    public static var queryCapabilities: UInt { UInt(slomo_vidioc_querycap()) }
    public static var enumerateFormats: UInt { UInt(slomo_vidioc_enum_fmt()) }
    public static var enumerateFrameSizes: UInt { UInt(slomo_vidioc_enum_framesizes()) }
    public static var enumerateFrameIntervals: UInt { UInt(slomo_vidioc_enum_frameintervals()) }
    public static var getParameters: UInt { UInt(slomo_vidioc_g_parm()) }
    public static var queryControl: UInt { UInt(slomo_vidioc_queryctrl()) }
    public static var queryMenu: UInt { UInt(slomo_vidioc_querymenu()) }
    public static var getControl: UInt { UInt(slomo_vidioc_g_ctrl()) }
    public static var setControl: UInt { UInt(slomo_vidioc_s_ctrl()) }
    public static var setPriority: UInt { UInt(slomo_vidioc_s_priority()) }
}

/// A real device node opened for ioctls (`/dev/videoN`).
public final class V4L2FileDevice: V4L2Device {
    private let descriptor: Int32
    public let path: String

    /// Opens `path` without blocking; names the problem (missing, busy, no permission).
    public init(path: String) throws(CaptureError) {
        self.path = path
        do throws(SystemError) {
            descriptor = try SystemError.check("open") { open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC) }
        } catch {
            let reason = error.message
            switch error.code {
            case ENOENT, ENODEV, ENXIO: throw CaptureError(.deviceNotFound, "\(path): no such device (\(reason))", hint: .listDevices)
            case EBUSY: throw CaptureError(.deviceBusy, "\(path): the device is busy (\(reason)); close the program using it")
            default: throw CaptureError(.deviceNotFound, "\(path): cannot open the device (\(reason))")
            }
        }
    }

    deinit { close(descriptor) }

    /// Performs the request (again when a signal interrupted it: `SystemError.check`); returns
    /// 0 or the errno value it failed with.
    public func control(_ request: UInt, _ argument: UnsafeMutableRawPointer) -> Int32 {
        do throws(SystemError) {
            try SystemError.check("ioctl") { slomo_ioctl(descriptor, request, argument) }
            return 0
        } catch {
            return error.code
        }
    }
}
