import Foundation

public enum InputFileSize {
    /// Bytes of a file, or of all files in a folder.
    public static func bytes(_ path: String) -> Int64 {
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        guard isDirectory.boolValue else {
            return ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.reduce(0) { $0 + bytes((path as NSString).appendingPathComponent($1)) }
    }
}
