extension Encoder {
    /// Audio: samples of priming the encoder puts before the first input sample (AAC: 1024);
    /// its packets' timestamps are earlier than those of the frames sent in by this much.
    public var initialPadding: Int { Int(context.pointee.initial_padding) }
}
