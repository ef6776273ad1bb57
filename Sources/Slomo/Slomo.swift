// The umbrella module: `import Slomo` gives a script or an app every public module of the
// toolkit at once — the time model (SlomoCore), the pipeline parts (SlomoConcurrency), edit-script files (SlomoScript), media files
// (SlomoMedia), time-pitch audio (SlomoAudio), a composition's sound as exports and the player
// render it (SlomoComposition), exports (SlomoExport), capture (SlomoCapture),
// editor timelines and phone sidecars (SlomoInterchange), pictures of time maps and frame
// intervals (SlomoPlot), playback at any rate (SlomoPlayback), batches run here or on Slurm
// (SlomoBatch) and the moments found in a clip (SlomoDetect).
@_exported import SlomoAudio
@_exported import SlomoBatch
@_exported import SlomoCapture
@_exported import SlomoComposition
@_exported import SlomoConcurrency
@_exported import SlomoDetect
@_exported import SlomoCore
@_exported import SlomoExport
@_exported import SlomoInterchange
@_exported import SlomoMedia
@_exported import SlomoPlayback
@_exported import SlomoPlot
@_exported import SlomoScript
