import CFFmpeg

extension Encoder {
    /// The sample rates FFmpeg's audio encoder `name` accepts (libopus: 48000, 24000, 16000,
    /// 12000, 8000); nil when it takes any rate or there is no such encoder.
    public static func supportedSampleRates(of name: String) -> [Int]? {
        guard let codec = avcodec_find_encoder_by_name(name), var rate = codec.pointee.supported_samplerates else { return nil }
        var rates: [Int] = []
        while rate.pointee != 0 {
            rates.append(Int(rate.pointee))
            rate += 1
        }
        return rates
    }
}
