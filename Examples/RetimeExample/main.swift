// Slows two seconds of a high-frame-rate clip to quarter speed without re-encoding the video,
// the way a script would use slomo as a library.
//
//   swift run RetimeExample match.mov match-slow.mov
import Foundation
import Slomo

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    print("usage: RetimeExample INPUT OUTPUT")
    exit(64)
}

do {
    let clip = try MediaFile(path: arguments[1])
    let edit = try Composition(retiming: clip, sections: ["2-4x0.25:ramp=0.2"])
    let session = ExportSession(composition: edit, to: arguments[2],
                                settings: ExportSettings(audioAlgorithm: .spectral))
    let result = try session.run { progress in
        print("\(Int(progress.fraction * 100)) %")
    }
    print("wrote \(result.outputPath): \(result.outputDuration.doubleSeconds) s")
} catch {
    print("error: \(error)")
    exit(1)
}
