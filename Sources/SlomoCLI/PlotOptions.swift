import ArgumentParser
import Foundation
import SlomoPlot

/// `--plot FILE`, `--plot-size WxH` and `--overwrite`: the picture `plan` and `inspect` draw
/// (the library draws it; this only checks the options and names them in errors).
struct PlotOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Draw a picture into this file; the extension picks the format: .png, .svg or .pdf.",
                               valueName: "file"),
            completion: .file(extensions: PlotFormat.allCases.map(\.rawValue)))
    var plot: String?

    @Option(name: .customLong("plot-size"),
            help: ArgumentHelp("The picture's width x height: pixels, or points in a .pdf (default 1200x700).",
                               valueName: "WxH"))
    var plotSize: String?

    @Flag(help: "Replace an existing --plot file (it is kept otherwise).")
    var overwrite = false

    func validate() throws {
        if plot == nil && (plotSize != nil || overwrite) {
            throw ValidationError("--plot-size and --overwrite apply to the picture: give --plot FILE too.")
        }
        _ = try file()
    }

    /// The picture asked for, nil without `--plot`; a bad name or size is a usage error.
    func file() throws -> PlotFile? {
        guard let plot else { return nil }
        var size = PlotSize.standard
        do {
            if let plotSize { size = try PlotSize(plotSize) }
        } catch {
            throw ValidationError("--plot-size " + ExitStatus.message(error))
        }
        do {
            return try PlotFile(path: plot, size: size, overwrite: overwrite)
        } catch {
            throw ValidationError("--plot " + ExitStatus.message(error))
        }
    }

    /// `file()`, checked to be writable before the command's work starts.
    func checkedFile() throws -> PlotFile? {
        let file = try file()
        try named { try file?.checkWritable() }
        return file
    }

    /// Draws with `write` and says on stderr what was written; errors about the plot file
    /// name `--plot`.
    func draw(into file: PlotFile, _ write: (PlotFile) throws -> Void) throws {
        try named { try write(file) }
        FileHandle.standardError.write(Data("plot: \(file.path) (\(file.size) \(file.format.rawValue.uppercased()))\n".utf8))
    }

    private func named(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch var error as PlotError where error.kind != .nothingToPlot {
            error.option = "--plot"
            throw error
        }
    }
}
