import Foundation

/// A path as the pipeline compares paths: absolute, `.` and `..` removed, and the links of its
/// folder resolved (the last component kept as written, so a link given is the link). One
/// spelling per place, however the path was given: inputs (`InputPath`) and a store's lock
/// (`RunLock`) alike.
public enum StandardPath {
    public static func of(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let url = URL(fileURLWithPath: absolute).standardizedFileURL
        guard url.path != "/" else { return "/" }
        return url.deletingLastPathComponent().resolvingSymlinksInPath().appendingPathComponent(url.lastPathComponent).path
    }
}
