import Foundation
#if canImport(Glibc)
    import Glibc
#endif
import MobilityCore

/// `manifest.csv`: `path,device[,person][,mode][,columns][,start][,utc_offset][,timezone]`, paths relative
/// to the manifest's folder, or globs (`alice/*.gpx`, `*` and `?` within one path component,
/// `[…]` sets, fnmatch(3) with FNM_PATHNAME; `**` as a whole component matches any number of
/// folders, `alice/**` every file below `alice/`, as in git and bash's globstar). It names the device, the person who carried it
/// and optionally the whole-file mode label of each listed input, overriding every other
/// source of identity; and how to read it: `columns`, a column mapping as `--columns` takes it
/// (quoted, as it holds commas: `"delimiter=space; header=0; dt=4:ms; acc=1,2,3"`), `start`,
/// the time its relative times count from (ISO 8601, or `name[+HH:MM]` for the date and time
/// in the file's name), and `utc_offset`, the offset of times written without one
/// (`ColumnMappings`). `timezone` is the IANA zone (`Europe/Paris`) of the device's local time:
/// its local hours, weekdays and dates in every output, daylight saving applied; it says
/// nothing about how to read the file (that is `utc_offset`). A path listed by name wins over
/// a glob; among globs, the first row that matches.
public struct Manifest: Sendable {
    /// The columns a manifest reads itself; any other column is the user's (such as a
    /// person's categories, `PopulationReader.personAttributes`).
    public static let columns: Set<String> = ["path", "device", "person", "mode", "columns", "start", "utc_offset", "timezone"]

    public struct Entry: Hashable, Sendable {
        public var device: String
        public var person: String?
        public var mode: String?
        /// How to read the input (`columns`, `start`, `utc_offset` as one mapping), if given.
        public var mapping: ColumnMappingSpec?
        /// The IANA zone of the device's local time (`timezone`), if given.
        public var timeZone: String?
    }

    /// Entries by standardised absolute path.
    public private(set) var entries: [String: Entry] = [:]
    /// Glob rows, as absolute patterns, in file order.
    public private(set) var globs: [(pattern: String, entry: Entry)] = []
    /// Where each row (by its absolute path or pattern) was written: the manifest and line.
    public private(set) var rows: [(path: String, manifest: String, line: Int)] = []

    public init() {}

    public mutating func load(path: String, dropped: inout DropCounts) throws {
        let folder = (path as NSString).deletingLastPathComponent
        var loaded: [String: Entry] = [:]
        var loadedGlobs: [(pattern: String, entry: Entry)] = []
        try NamedColumnsCSV.forEachRow(
            path: path,
            header: { names in
                let lower = Set(names.map { $0.lowercased() })
                guard lower.contains("path"), lower.contains("device") else {
                    throw InputError(
                        .badHeader, "a manifest needs the columns path,device[,person][,mode]; saw [\(names.joined(separator: ", "))]",
                        path: path, line: 1)
                }
            }
        ) { row in
            guard let file = row.value("path"), let device = row.value("device") else {
                return dropped.record(.malformedRow, line: row.line)
            }
            let absolute = file.hasPrefix("/") ? file : (folder as NSString).appendingPathComponent(file)
            var entry = Entry(device: device, person: row.value("person"), mode: row.value("mode"))
            if let zone = row.value("timezone"), !zone.isEmpty {
                guard CalendarKeys(zone: zone) != nil else {
                    throw InputError(
                        .badHeader,
                        "the row for \(file): timezone \(CalendarKeys.unknownZone(zone))",
                        path: path, line: row.line)
                }
                entry.timeZone = zone
            }
            let parts = [row.value("columns"), row.value("start").map { "start=" + $0 }, row.value("utc_offset").map { "utc_offset=" + $0 }]
                .compactMap { $0 }.filter { !$0.isEmpty }
            if !parts.isEmpty {
                do { entry.mapping = try ColumnMappingSpec(text: parts.joined(separator: ";")) } catch let error
                    as PipelineError where error.code == .invalidColumnMapping
                {
                    throw InputError(.badHeader, "the row for \(file): \(error.description)", path: path, line: row.line)
                }
                if entry.mapping?.files != nil {
                    throw InputError(
                        .badHeader, "the row for \(file): files= has no place in a manifest (its path column names the files)", path: path,
                        line: row.line)
                }
            }
            if file.contains(where: { "*?[".contains($0) }) {
                loadedGlobs.append((InputPath.standardiseFolder(of: absolute), entry))
                rows.append((InputPath.standardiseFolder(of: absolute), path, row.line))
            } else {
                loaded[InputPath.standardise(absolute)] = entry
                rows.append((InputPath.standardise(absolute), path, row.line))
            }
        }
        entries.merge(loaded) { _, new in new }
        globs = loadedGlobs + globs // a manifest read later (deeper) is more specific
    }

    public var isEmpty: Bool { entries.isEmpty && globs.isEmpty }

    /// The rows that name no path of `inputs` (a file moved, renamed or misspelt): each with
    /// its manifest and line, so a run can say so instead of naming those files otherwise.
    public func unmatchedRows(_ inputs: [String]) -> [(path: String, manifest: String, line: Int)] {
        let paths = Set(inputs.map(InputPath.standardise))
        return rows.filter { row in
            row.path.contains(where: { "*?[".contains($0) })
                ? !paths.contains { Self.matches(row.path, $0) } : !paths.contains(row.path)
        }
    }

    public func entry(for path: String) -> Entry? {
        let path = InputPath.standardise(path)
        if let entry = entries[path] { return entry }
        return globs.first { Self.matches($0.pattern, path) }?.entry
    }

    /// Whether the glob `pattern` matches `path`, component by component: fnmatch(3) within a
    /// component, `**` for any number of components (none included).
    public static func matches(_ pattern: String, _ path: String) -> Bool {
        guard pattern.contains("**") else { return fnmatch(pattern, path, FNM_PATHNAME) == 0 }
        let parts = pattern.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let names = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        func match(_ p: Int, _ n: Int) -> Bool {
            if p == parts.count { return n == names.count }
            if parts[p] == "**" { return (n...names.count).contains { match(p + 1, $0) } }
            return n < names.count && fnmatch(parts[p], names[n], 0) == 0 && match(p + 1, n + 1)
        }
        return match(0, 0)
    }

    /// The glob row whose folder holds `path` below the depth its pattern reaches, for a path
    /// no row matches (`user/*` and `user/Trajectory/1.plt`): such a file takes its device
    /// from elsewhere (its folder), likely not what the row meant.
    public func rowAbove(_ path: String) -> (pattern: String, manifest: String, line: Int)? {
        let path = InputPath.standardise(path)
        guard entry(for: path) == nil else { return nil }
        for row in rows where row.path.contains(where: { "*?[".contains($0) }) && !row.path.contains("**") {
            let parts = row.path.split(separator: "/", omittingEmptySubsequences: false)
            guard let wild = parts.firstIndex(where: { $0.contains(where: { "*?[".contains($0) }) }) else { continue }
            let folder = parts[..<wild].joined(separator: "/") + "/"
            if path.hasPrefix(folder), path.split(separator: "/", omittingEmptySubsequences: false).count > parts.count {
                return (row.path, row.manifest, row.line)
            }
        }
        return nil
    }
}

/// Paths as the store keys them: absolute and standardised, the folders' symbolic links
/// resolved and the last component kept as the user named it: a link keeps its own name, which
/// is the name `start=name` and device names read, in every stage.
public enum InputPath {
    /// Throws, naming the path, when a path given to a run does not exist (nothing is created).
    public static func requireExisting(_ paths: [String]) throws {
        for path in paths where FileKind(path: standardise(path)).isMissing {
            throw InputError(.unreadable, "no such file or folder (check the path; nothing was read and no store was created)", path: path)
        }
    }

    /// `StandardPath.of(path)`.
    public static func standardise(_ path: String) -> String { StandardPath.of(path) }

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
