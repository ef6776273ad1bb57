// swift-tools-version: 6.1
import PackageDescription

/// SlomoAudio's DSP loops run about 5x slower unoptimised, and this repository's test suite
/// stretches minutes of audio (its audio tests: 43 s optimised, 207 s not). `scripts/test` and
/// `scripts/demo` set SLOMO_OPTIMISE_AUDIO=1 to build them with -O in debug builds too. The flag
/// is unsafe in SwiftPM's sense, which it refuses in a package depended on by version, so a
/// package that depends on slomo never sees it: it builds SlomoAudio as its configuration says.
let optimisedInDebugBuilds: [SwiftSetting] = Context.environment["SLOMO_OPTIMISE_AUDIO"] == "1" ? [.unsafeFlags(["-O"])] : []

let package = Package(
    name: "slomo",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "slomo", targets: ["SlomoCLI"]),
        .library(name: "Slomo", targets: ["Slomo"]),
        .library(name: "SlomoCore", targets: ["SlomoCore"]),
        .library(name: "SlomoConcurrency", targets: ["SlomoConcurrency"]),
        .library(name: "SlomoScript", targets: ["SlomoScript"]),
        .library(name: "SlomoMedia", targets: ["SlomoMedia"]),
        .library(name: "SlomoAudio", targets: ["SlomoAudio"]),
        .library(name: "SlomoComposition", targets: ["SlomoComposition"]),
        .library(name: "SlomoExport", targets: ["SlomoExport"]),
        .library(name: "SlomoCapture", targets: ["SlomoCapture"]),
        .library(name: "SlomoInterchange", targets: ["SlomoInterchange"]),
        .library(name: "SlomoPlot", targets: ["SlomoPlot"]),
        .library(name: "SlomoPlayback", targets: ["SlomoPlayback"]),
        .library(name: "SlomoBatch", targets: ["SlomoBatch"]),
        .library(name: "SlomoDetect", targets: ["SlomoDetect"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.0.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.0"),
    ],
    targets: [
        // System libraries: module maps that link every library by name (Debian's .pc files
        // have empty `Requires:`), plus shim headers for what does not import into Swift.
        .systemLibrary(name: "CFFmpeg", path: "Sources/CFFmpeg"),
        .systemLibrary(name: "CRubberBand", path: "Sources/CRubberBand"),
        .systemLibrary(name: "CSoundTouch", path: "Sources/CSoundTouch"),
        .systemLibrary(name: "CSampleRate", path: "Sources/CSampleRate"),
        .systemLibrary(name: "CV4L2", path: "Sources/CV4L2"),
        .systemLibrary(name: "CFFTW", path: "Sources/CFFTW"),
        // cairo's image, SVG and PDF surfaces, for the plots of `plan` and `inspect`.
        .systemLibrary(name: "CCairo", path: "Sources/CCairo"),
        // SDL 2: the player's window, renderer and sound device.
        .systemLibrary(name: "CSDL2", path: "Sources/CSDL2"),
        // libavfilter and libavdevice, opened on first use instead of linked (faster start).
        .target(name: "CFFmpegOnDemand", dependencies: ["CFFmpeg"]),
        // Optical-flow frame interpolation: C++ over OpenCV's DIS flow behind a plain C header
        // (Swift imports only that header; no C++ interop anywhere). Debian's OpenCV module
        // packages ship no opencv4.pc, so the libraries are spelled out, and the headers are
        // reached through `opencv4`, a link to /usr/include/opencv4 (a header search path
        // inside the package, which SwiftPM allows in dependencies, unlike -I flags).
        .target(name: "CInterpolate",
                exclude: ["opencv4"],
                cxxSettings: [.headerSearchPath("opencv4")],
                linkerSettings: [.linkedLibrary("opencv_video"), .linkedLibrary("opencv_imgproc"),
                                 .linkedLibrary("opencv_core")]),

        // Pure Swift time model: no C, tested in milliseconds.
        .target(name: "SlomoCore"),
        // The parts every pipeline shares: a guarded value, a bounded queue between stages, a
        // worker thread, and the live-object counts that follow work onto its threads.
        .target(name: "SlomoConcurrency"),
        // Edit scripts as YAML and JSON files: reading, validating, writing (Yams, which
        // carries a C library, stays out of SlomoCore).
        .target(name: "SlomoScript", dependencies: ["SlomoCore", .product(name: "Yams", package: "Yams")]),
        // The only module that touches libav* pointers.
        .target(name: "SlomoMedia", dependencies: ["SlomoCore", "SlomoConcurrency", "CFFmpeg", "CFFmpegOnDemand", "CInterpolate"]),
        // Time-pitch processors and the renderer of a time map's audio.
        .target(name: "SlomoAudio", dependencies: ["SlomoCore", "SlomoConcurrency", "CRubberBand", "CSoundTouch", "CSampleRate", "CFFTW"],
                swiftSettings: optimisedInDebugBuilds),
        // A composition's sound as every front end renders it (its clips' audio through their
        // maps, joined end to end), below both exports and the player, with its own error type.
        .target(name: "SlomoComposition", dependencies: ["SlomoCore", "SlomoMedia", "SlomoAudio"]),
        // Export sessions: passthrough retime and constant-frame-rate rendering.
        .target(name: "SlomoExport", dependencies: ["SlomoCore", "SlomoConcurrency", "SlomoMedia", "SlomoAudio", "SlomoComposition"]),
        // High-frame-rate capture: sessions, devices, movie file and frame outputs, meters.
        .target(name: "SlomoCapture", dependencies: ["SlomoCore", "SlomoConcurrency", "SlomoMedia", "CV4L2"]),
        // Editor timelines (OTIO, FCPXML, MLT) in and out, and phones' slow-motion sidecars.
        .target(name: "SlomoInterchange", dependencies: ["SlomoCore", "SlomoScript", "SlomoMedia", "SlomoDetect"]),
        // Pictures: time maps and frame intervals drawn with cairo as PNG, SVG or PDF.
        .target(name: "SlomoPlot", dependencies: ["SlomoCore", "SlomoMedia", "SlomoDetect", "CCairo"]),
        // Playback at any rate: Player and PlayerItem, SDL window and sound, the audio clock as master.
        // Also capture's live preview, in the same window.
        .target(name: "SlomoPlayback", dependencies: ["SlomoCore", "SlomoConcurrency", "SlomoMedia", "SlomoAudio", "SlomoComposition", "SlomoCapture",
                                                      "CSDL2", "CCairo"]),
        // Batches: a manifest's jobs planned and checked, a run folder of results, engines that
        // run them here or as Slurm job arrays.
        .target(name: "SlomoBatch", dependencies: ["SlomoCore", "SlomoConcurrency", "SlomoScript", "SlomoMedia"]),
        // Finding the moment: local motion and sound onsets measured, cuts set apart, moments ranked.
        .target(name: "SlomoDetect", dependencies: ["SlomoCore", "SlomoConcurrency", "SlomoMedia"]),
        // The umbrella module: `import Slomo` re-exports the public modules.
        .target(name: "Slomo", dependencies: ["SlomoCore", "SlomoConcurrency", "SlomoScript", "SlomoMedia", "SlomoAudio", "SlomoComposition", "SlomoExport", "SlomoCapture",
                                              "SlomoInterchange", "SlomoPlot", "SlomoPlayback", "SlomoBatch", "SlomoDetect"]),
        // The command-line tool: parsing and printing only.
        .executableTarget(
            name: "SlomoCLI",
            dependencies: [
                "SlomoCore", "SlomoScript", "SlomoMedia", "SlomoAudio", "SlomoComposition", "SlomoExport", "SlomoCapture", "SlomoInterchange", "SlomoPlot",
                "SlomoPlayback", "SlomoBatch", "SlomoDetect", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Examples: the library used the way a script would.
        .executableTarget(name: "RetimeExample", dependencies: ["Slomo"],
                          path: "Examples/RetimeExample"),
        .executableTarget(name: "EditScriptExample", dependencies: ["Slomo"],
                          path: "Examples/EditScriptExample"),
        .executableTarget(name: "CaptureExample", dependencies: ["Slomo"], path: "Examples/CaptureExample"),
        .executableTarget(name: "PlayerExample", dependencies: ["Slomo"], path: "Examples/PlayerExample"),
        .executableTarget(name: "FrameWriterExample", dependencies: ["Slomo"], path: "Examples/FrameWriterExample"),

        // Benchmarks (scripts/bench): they measure and print, they do not assert.
        .executableTarget(name: "TimeMapBenchmark", dependencies: ["SlomoCore"], path: "Benchmarks/TimeMapBenchmark"),

        // Generated fixtures (made by the ffmpeg command) and ffprobe helpers for tests.
        .target(name: "SlomoTestSupport", dependencies: ["SlomoCore", "SlomoMedia"], path: "Tests/SlomoTestSupport"),
        // The support's own rules, where a test depends on them (when a real-time bar is judged).
        .testTarget(name: "SlomoTestSupportTests", dependencies: ["SlomoTestSupport"]),
        .testTarget(
            name: "SlomoCoreTests",
            dependencies: ["SlomoCore", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        // Edit scripts read and written: round trips, and errors that name their place.
        .testTarget(
            name: "SlomoScriptTests",
            dependencies: ["SlomoScript", "SlomoCore", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(name: "SlomoConcurrencyTests", dependencies: ["SlomoConcurrency"]),
        .testTarget(name: "SlomoMediaTests", dependencies: ["SlomoMedia", "SlomoConcurrency", "SlomoTestSupport"]),
        .testTarget(name: "SlomoAudioTests", dependencies: ["SlomoAudio", "SlomoTestSupport"]),
        .testTarget(name: "SlomoExportTests", dependencies: ["SlomoExport", "SlomoConcurrency", "SlomoTestSupport"]),
        .testTarget(name: "SlomoCaptureTests", dependencies: ["SlomoCapture", "SlomoConcurrency", "SlomoTestSupport"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "SlomoInterchangeTests", dependencies: ["SlomoInterchange", "SlomoTestSupport"]),
        .testTarget(name: "SlomoCLITests", dependencies: ["SlomoCLI", "SlomoTestSupport"]),
        // Batches on the local engine and on a real single-node Slurm the tests start themselves.
        .testTarget(name: "SlomoBatchTests", dependencies: ["SlomoBatch", "SlomoMedia", "SlomoCLI", "SlomoTestSupport"]),
        // Moments found in generated clips with known ground truth: impacts, pans, cuts.
        .testTarget(name: "SlomoDetectTests", dependencies: ["SlomoDetect", "SlomoMedia", "SlomoTestSupport"]),
        // The player driven from Swift: seeks, frame steps and rate changes, judged by its log.
        .testTarget(name: "SlomoPlaybackTests", dependencies: ["SlomoPlayback", "SlomoConcurrency", "SlomoMedia", "SlomoTestSupport"]),
        // The plots drawn by the library and by `plan --plot` and `inspect --plot`, read back.
        .testTarget(name: "SlomoPlotTests", dependencies: ["SlomoPlot", "SlomoConcurrency", "SlomoMedia", "SlomoDetect", "CCairo", "SlomoCLI",
                                                     "SlomoTestSupport"]),
    ],
    cxxLanguageStandard: .cxx17
)
