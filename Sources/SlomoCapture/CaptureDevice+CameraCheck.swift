extension CaptureDevice {
    /// Checks that the camera `input` names exists, is a capture device, and lists the format
    /// asked for; otherwise the error lists what it can do.
    static func checkCamera(for input: CaptureInput) throws(CaptureError) {
        let device = try camera(at: input.mediaInput.url)
        var candidates = device.formats
        if let pixel = input.requestedPixelFormat {
            candidates = candidates.filter { $0.ffmpegPixelFormat == pixel || $0.fourCC.lowercased() == pixel.lowercased() }
        }
        if let request = input.requestedFormat { candidates = candidates.filter { $0.matches(request) } }
        guard candidates.isEmpty, input.requestedFormat != nil || input.requestedPixelFormat != nil else { return }
        let wanted = [input.requestedFormat?.description, input.requestedPixelFormat].compactMap { $0 }.joined(separator: " ")
        let offers = device.formats.map { "\($0.ffmpegPixelFormat) \($0)" }.joined(separator: "; ")
        throw CaptureError(.unsupportedFormat, "\(input.label) (\(device.name)) cannot capture \(wanted); it offers: \(offers)")
    }
}
