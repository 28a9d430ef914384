import Foundation

/// Where the files shipped beside the binary are found (the mode model, the time-zone
/// boundaries), so `pipeline run` works from any folder, not only from the repository root.
///
/// A default path (`models/mode-model.json`) is tried as given (relative to the working folder,
/// where a user's own `models/` wins); when it is not there, the folders above the running
/// executable are searched for it (a build inside the repository:
/// `.build/<triple>/release/pipeline`) and for `share/mobility-pipeline/<name>` (an install:
/// `<prefix>/bin/pipeline`). A path the user gave explicitly is never replaced.
public enum ShippedFile {
    public static let modeModel = "models/mode-model.json"
    public static let timeZones = "models/time-zones.bin"

    /// `path` when it exists or is not the default `relativePath`; else the shipped file found
    /// from the executable; else `path` unchanged (the caller then reports it missing).
    public static func resolve(_ path: String, default relativePath: String, executable: String = executablePath()) -> String {
        guard path == relativePath, !FileManager.default.fileExists(atPath: path) else { return path }
        let installed = "share/mobility-pipeline/" + (relativePath as NSString).lastPathComponent
        var folder = (executable as NSString).deletingLastPathComponent
        while folder.count > 1 {
            for candidate in [relativePath, installed] {
                let full = (folder as NSString).appendingPathComponent(candidate)
                if FileManager.default.fileExists(atPath: full) { return full }
            }
            folder = (folder as NSString).deletingLastPathComponent
        }
        return path
    }

    /// The running executable's real path (links resolved), from `/proc/self/exe` on Linux.
    public static func executablePath() -> String {
        if let real = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return real }
        return (CommandLine.arguments.first.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path }) ?? ""
    }
}

/// The shipped mode model (`ShippedFile`).
public enum DefaultModel {
    public static let relativePath = ShippedFile.modeModel
    public static let installedPath = "share/mobility-pipeline/mode-model.json"

    public static func resolve(_ path: String, executable: String = ShippedFile.executablePath()) -> String {
        ShippedFile.resolve(path, default: relativePath, executable: executable)
    }

    public static func executablePath() -> String { ShippedFile.executablePath() }
}
