import SlomoCapture
import Testing

@Test func captureErrorDescribesItself() {
    #expect(CaptureError("/dev/video9: no such device").description == "/dev/video9: no such device")
}
