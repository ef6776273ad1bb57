import CFFmpeg
import SlomoCore

extension Damage {
    /// Truncation found without reading a packet: the packets a container's index declares
    /// (MP4/MOV sample tables, Matroska cues) that lie past the end of the file. A truncated
    /// file whose index came first (`faststart`) opens fine and plays until the cut; this is
    /// where slomo says so.
    static func truncation(in context: UnsafeMutablePointer<AVFormatContext>, streams: [StreamInfo]) -> [Damage] {
        guard let io = context.pointee.pb else { return [] }
        let fileSize = avio_size(io)
        guard fileSize > 0 else { return [] }
        return streams.compactMap { info -> Damage? in
            guard let stream = context.pointee.streams[info.index] else { return nil }
            let count = Int(avformat_index_get_entries_count(stream))
            guard count > 0 else { return nil }
            var firstMissing: Int?
            var cut = false
            for index in 0..<count {
                guard let entry = avformat_index_get_entry(stream, Int32(index)) else { continue }
                let end = entry.pointee.pos + Int64(entry.pointee.size)
                if end > fileSize {
                    firstMissing = index
                    cut = entry.pointee.pos < fileSize
                    break
                }
            }
            guard let firstMissing else { return nil }
            let entry = avformat_index_get_entry(stream, Int32(firstMissing))!
            let start = info.startTime ?? .zero
            let readable = MediaTime(ticks: entry.pointee.timestamp, timeBase: info.timeBase) - start
            let declared = info.duration.map { " of \($0.formattedSeconds(fractionDigits: 2)) s" } ?? ""
            let missing = count - firstMissing
            let message = "\(info.kind.rawValue) ends at \(readable.formattedSeconds(fractionDigits: 2)) s\(declared), "
                + "\(missing) of \(count) packets missing\(cut ? ", the last readable one cut" : "") (file truncated?)"
            return Damage(kind: .truncated, stream: info.index, readableUntil: readable, packets: missing, message: message)
        }
    }
}
