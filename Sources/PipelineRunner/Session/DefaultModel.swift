import Foundation

/// Where the shipped mode model is found, so `pipeline run` and `classify` work from any
/// folder, not only from the repository root.
///
/// The default path `models/mode-model.json` is tried as given (relative to the working
/// folder, where a user's own `models/` wins); when it is not there, the folders above the
/// running executable are searched for `models/mode-model.json` (a build inside the
/// repository: `.build/<triple>/release/pipeline`) and for
/// `share/mobility-pipeline/mode-model.json` (an install: `<prefix>/bin/pipeline`). A path the
/// user gave explicitly is never replaced.
public enum DefaultModel {
    public static let relativePath = "models/mode-model.json"
    public static let installedPath = "share/mobility-pipeline/mode-model.json"

    /// `path` when it exists or is not the default; else the shipped model found from the
    /// executable; else `path` unchanged (the caller then reports it missing).
    public static func resolve(_ path: String, executable: String = executablePath()) -> String {
        guard path == relativePath, !FileManager.default.fileExists(atPath: path) else { return path }
        var folder = (executable as NSString).deletingLastPathComponent
        while folder.count > 1 {
            for candidate in [relativePath, installedPath] {
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
