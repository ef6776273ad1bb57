/// H.264's packet rules (ITU-T H.264 7.3, 7.4.1): NAL units that tile the packet, the
/// forbidden bit clear, no reserved unit type, parameter sets that parse, and at least one
/// slice whose header parses, starts inside the picture and names parameter sets the stream has.
struct H264Framing: CodedFraming {
    private var sets: H264ParameterSetStore

    init(extradata: UnsafeRawBufferPointer) {
        sets = H264ParameterSetStore(extradata: extradata)
    }

    /// Unit types the standard reserves (16–18, 22, 23) or leaves to other systems (0, 24–31,
    /// which RTP uses and a file never holds).
    private static func isReserved(_ type: Int) -> Bool { [0, 16, 17, 18, 22, 23].contains(type) || type >= 24 }

    mutating func problem(in packet: UnsafeRawBufferPointer) -> String? {
        NALUnits.packetProblem(in: packet, framing: sets.framing) { problem(inUnit: $0, slices: &$1) }
    }

    private mutating func problem(inUnit nal: UnsafeRawBufferPointer, slices: inout Int) -> String? {
        let header = Int(nal[0])
        let type = header & 0x1F
        guard header & 0x80 == 0 else { return "a NAL unit with its forbidden bit set" }
        guard !Self.isReserved(type) else { return "a NAL unit of reserved type \(type)" }
        switch type {
        case 7, 8:
            return sets.take(nal: nal) ? nil : "a \(type == 7 ? "sequence" : "picture") parameter set that does not parse"
        case 1...5, 19, 20, 21:
            slices += 1
            return [1, 5].contains(type) ? sliceProblem(nal, type: type, referenceIDC: header >> 5) : nil
        default:
            return nil
        }
    }

    private func sliceProblem(_ nal: UnsafeRawBufferPointer, type: Int, referenceIDC: Int) -> String? {
        var reader = NALBitReader(nal: nal)
        do {
            _ = try reader.bits(8)
            let firstMacroblock = try reader.unsigned()
            let sliceType = try reader.unsigned()
            guard sliceType <= 9 else { return "a slice of type \(sliceType), which does not exist" }
            let pictureSet = try reader.unsigned()
            guard let pps = sets.pictures[pictureSet] else {
                return "a slice naming picture parameter set \(pictureSet), which the stream does not have"
            }
            guard let sps = sets.sequences[pps.sequenceID] else {
                return "a slice naming sequence parameter set \(pps.sequenceID), which the stream does not have"
            }
            guard firstMacroblock < sps.frameMacroblocks else {
                return "a slice starting at macroblock \(firstMacroblock) of \(sps.frameMacroblocks)"
            }
            var whole = NALBitReader(nal: nal)
            _ = try H264PictureReferences.SliceLists.parse(&whole, nalType: type, referenceIDC: referenceIDC, sets: sets)
            return nil
        } catch {
            return "a slice header cut short"
        }
    }
}
