// Plays a movie with seconds 1–2 slowed four times, from Swift: the composition is built in
// code, the player's observer prints where it is twice a second, and once the slowed part has
// been seen the rest plays at double speed with the varispeed algorithm (pitch follows).
//
//   swift run PlayerExample match.mov
//   SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=disk swift run PlayerExample match.mov   # headless
import Foundation
import Slomo

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    print("usage: PlayerExample MOVIE")
    exit(64)
}

do {
    var composition = try Composition(retiming: try MediaFile(path: arguments[1]), sections: [])
    try composition.scale(TimeRange(start: .seconds(1), end: .seconds(2)), rate: 0.25)
    let item = try PlayerItem(composition)
    let player = Player(item: item, rate: .normal, audioAlgorithm: .spectral) { event in
        switch event {
        case .time(let status):
            print(String(format: "%6.2f s  source %5.2f s  rate %.2fx  %@", status.time, status.sourceTime,
                          status.rate, status.algorithm))
        case .notice(let text):
            print("note: \(text)")
        case .ended(let statistics):
            print("played to the end: \(statistics.shown) pictures shown, \(statistics.dropped) dropped late, "
                  + "\(statistics.underruns) underruns")
        case .failed(let error):
            print("playing failed: \(error)")
        }
    }
    // Controls work from any thread: after the slowed second (output 1 s to 5 s), double speed.
    Thread.detachNewThread {
        while (player.status?.time ?? 0) < 5 { usleep(50_000) }
        player.setAudioAlgorithm(.varispeed)
        player.setRate(2)
    }
    _ = try player.run()
} catch {
    print("error: \(error)")
    exit(1)
}
