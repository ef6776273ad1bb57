// The umbrella module: `import Slomo` gives a script or an app every public module of the
// toolkit at once — the time model (SlomoCore), media files (SlomoMedia), time-pitch audio
// (SlomoAudio), exports (SlomoExport) and capture (SlomoCapture).
@_exported import SlomoAudio
@_exported import SlomoCapture
@_exported import SlomoCore
@_exported import SlomoExport
@_exported import SlomoMedia
