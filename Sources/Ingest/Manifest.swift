import Foundation
import MobilityCore

/// `manifest.csv`: `path,device[,mode]`, paths relative to the manifest's folder. It names the
/// device (and optionally the whole-file mode label) of each listed input, overriding every
/// other source of identity.
public struct Manifest: Sendable {
    public struct Entry: Hashable, Sendable {
        public var device: String
        public var mode: String?
    }

    /// Entries by standardised absolute path.
    public private(set) var entries: [String: Entry] = [:]

    public init() {}

    public mutating func load(path: String, dropped: inout DropCounts) throws {
        let folder = (path as NSString).deletingLastPathComponent
        var loaded: [String: Entry] = [:]
        try NamedColumnsCSV.forEachRow(path: path, header: { names in
            let lower = Set(names.map { $0.lowercased() })
            guard lower.contains("path"), lower.contains("device") else {
                throw InputError(.badHeader, "a manifest needs the columns path,device[,mode]; saw [\(names.joined(separator: ", "))]", path: path, line: 1)
            }
        }) { row in
            guard let file = row.value("path"), let device = row.value("device") else {
                return dropped.record(.malformedRow, line: row.line)
            }
            let absolute = file.hasPrefix("/") ? file : (folder as NSString).appendingPathComponent(file)
            loaded[InputPath.standardise(absolute)] = Entry(device: device, mode: row.value("mode"))
        }
        entries.merge(loaded) { _, new in new }
    }

    public func entry(for path: String) -> Entry? { entries[InputPath.standardise(path)] }
}

/// Paths as the store keys them: absolute, standardised, symlinks resolved.
public enum InputPath {
    public static func standardise(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return URL(fileURLWithPath: absolute).standardizedFileURL.resolvingSymlinksInPath().path
    }
}
