import Foundation
#if canImport(Glibc)
import Glibc
#endif
import MobilityCore

/// `manifest.csv`: `path,device[,person][,mode]`, paths relative to the manifest's folder, or
/// globs (`alice/*.gpx`, `*` and `?` within one path component, `[…]` sets; fnmatch(3) with
/// FNM_PATHNAME). It names the device, the person who carried it and optionally the whole-file
/// mode label of each listed input, overriding every other source of identity. A path listed
/// by name wins over a glob; among globs, the first row that matches.
public struct Manifest: Sendable {
    public struct Entry: Hashable, Sendable {
        public var device: String
        public var person: String?
        public var mode: String?
    }

    /// Entries by standardised absolute path.
    public private(set) var entries: [String: Entry] = [:]
    /// Glob rows, as absolute patterns, in file order.
    public private(set) var globs: [(pattern: String, entry: Entry)] = []

    public init() {}

    public mutating func load(path: String, dropped: inout DropCounts) throws {
        let folder = (path as NSString).deletingLastPathComponent
        var loaded: [String: Entry] = [:]
        var loadedGlobs: [(pattern: String, entry: Entry)] = []
        try NamedColumnsCSV.forEachRow(path: path, header: { names in
            let lower = Set(names.map { $0.lowercased() })
            guard lower.contains("path"), lower.contains("device") else {
                throw InputError(.badHeader, "a manifest needs the columns path,device[,person][,mode]; saw [\(names.joined(separator: ", "))]", path: path, line: 1)
            }
        }) { row in
            guard let file = row.value("path"), let device = row.value("device") else {
                return dropped.record(.malformedRow, line: row.line)
            }
            let absolute = file.hasPrefix("/") ? file : (folder as NSString).appendingPathComponent(file)
            let entry = Entry(device: device, person: row.value("person"), mode: row.value("mode"))
            if file.contains(where: { "*?[".contains($0) }) {
                loadedGlobs.append((InputPath.standardiseFolder(of: absolute), entry))
            } else {
                loaded[InputPath.standardise(absolute)] = entry
            }
        }
        entries.merge(loaded) { _, new in new }
        globs = loadedGlobs + globs  // a manifest read later (deeper) is more specific
    }

    public var isEmpty: Bool { entries.isEmpty && globs.isEmpty }

    public func entry(for path: String) -> Entry? {
        let path = InputPath.standardise(path)
        if let entry = entries[path] { return entry }
        return globs.first { fnmatch($0.pattern, path, FNM_PATHNAME) == 0 }?.entry
    }
}

/// Paths as the store keys them: absolute, standardised, symlinks resolved.
public enum InputPath {
    /// Throws, naming the path, when a path given to a run does not exist (nothing is created).
    public static func requireExisting(_ paths: [String]) throws {
        for path in paths where FileKind(path: standardise(path)).isMissing {
            throw InputError(.unreadable, "no such file or folder (check the path; nothing was read and no store was created)", path: path)
        }
    }

    public static func standardise(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return URL(fileURLWithPath: absolute).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// A glob's folder standardised as `standardise` does (links resolved), its last
    /// component (the pattern) kept as written; a pattern in a folder name is left as written.
    public static func standardiseFolder(of pattern: String) -> String {
        let folder = (pattern as NSString).deletingLastPathComponent
        guard !folder.contains(where: { "*?[".contains($0) }) else {
            return URL(fileURLWithPath: pattern).standardizedFileURL.path
        }
        return (standardise(folder) as NSString).appendingPathComponent((pattern as NSString).lastPathComponent)
    }
}
