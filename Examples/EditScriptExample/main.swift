// Loads an edit script, changes its first section's rate, and exports it exactly as
// `slomo export SCRIPT` would: the script's own output settings (mode, frame rate, codec,
// frame choice, audio) come from the library, not from a command line.
//
//   swift run EditScriptExample edit.yaml 0.125 edit-slower.mp4
import Foundation
import Slomo

let arguments = CommandLine.arguments
guard arguments.count == 4, let rate = try? Rate(parsing: arguments[2]) else {
    print("usage: EditScriptExample SCRIPT RATE OUTPUT")
    exit(64)
}

do {
    var script = try EditScript(contentsOf: arguments[1])
    guard var section = script.clips.first?.sections.first else {
        print("error: \(arguments[1]) has no section to change")
        exit(1)
    }
    section.rate = rate
    script.clips[0].sections[0] = section
    print("first section now \(section)")

    let sources = try script.clips.map { try MediaFile(path: script.sourcePath(of: $0)).sourceInfo() }
    let composition = try script.composition(sources: sources)
    let session = ExportSession(composition: composition, to: arguments[3],
                                settings: try script.output.exportSettings(), video: try script.output.videoSettings())
    let result = try session.run { progress in
        if progress.fraction >= 1 { print("100 %") }
    }
    print("wrote \(result.outputPath): \(result.outputDuration.doubleSeconds) s, \(result.videoFrames) video frames")
} catch {
    print("error: \(error)")
    exit(1)
}
