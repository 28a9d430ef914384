import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Which column mapping, if any, applies to each input: a mapping belongs to the files it
/// names, never to every file of a run.
///
/// In order:
/// 1. a `manifest.csv` row's `columns`, `start` and `utc_offset` (for the files its `path`
///    or glob names);
/// 2. the first `--columns` (or `--columns-file`) with `files=GLOB` that matches the input (a
///    glob without `/` is matched against the file or folder name, one with `/` against the
///    path below the folder given to the run);
/// 3. the one `--columns` without `files=`, only for files no reader recognises and whose
///    first data row it fits (enough fields, numbers in its columns), so a phyphox export or a
///    metadata table beside a headerless logger's files is left alone;
/// 4. the mapping stored with the file when it was last read, so a re-run without options
///    reads it as before.
///
/// A mapping with columns describes a table (it replaces detection for the files it names); a
/// mapping of `start=` (and `utc_offset=`) alone gives the start of a recognised file's
/// relative times: a phyphox export without `meta/time.csv`, a position or IMU table whose
/// times count from 0.
public struct ColumnMappings: Sendable {
    public private(set) var scoped: [ColumnMappingSpec] = []
    public private(set) var unscoped: ColumnMappingSpec?

    public init() {}

    public init(_ specs: [ColumnMappingSpec]) throws {
        scoped = specs.filter { $0.files != nil }
        let general = specs.filter { $0.files == nil }
        guard general.count <= 1 else {
            throw ColumnMappingSpec.invalid(
                "\(general.count) mappings without files=: give every mapping but one a files=GLOB naming the files it is for")
        }
        unscoped = general.first
    }

    /// A mapping stored with a file (its `storedText`), for re-reading that file as it was read.
    public init(stored text: String?) throws {
        guard let text else { return }
        var spec = try ColumnMappingSpec(text: text)
        spec.entries["files"] = "*"
        scoped = [spec]
    }

    public var isEmpty: Bool { scoped.isEmpty && unscoped == nil }

    /// How a mapping is applied to one input.
    public enum Choice: Sendable {
        /// Named for this input (manifest, `files=`, or stored with it): applied as it says.
        case given(ColumnMappingSpec)
        /// The run's mapping without `files=`: applied only when nothing else reads the file.
        case fallback(ColumnMappingSpec)

        /// The mapping of a `.fallback`, else nil.
        var fallbackSpec: ColumnMappingSpec? { if case .fallback(let spec) = self { spec } else { nil } }
    }

    /// The mapping for `input`: its manifest row's, else the run's, else the one it was last
    /// read with (`stored`, the store's text).
    public func choice(for input: DiscoveredInput, manifest entry: Manifest.Entry?, stored: String? = nil) -> Choice? {
        if let spec = entry?.mapping { return .given(spec) }
        if let spec = scoped.first(where: { Self.matches($0.files!, input: input) }) { return .given(spec) }
        if let unscoped { return .fallback(unscoped) }
        if let stored, let spec = try? ColumnMappingSpec(text: stored) { return .given(spec) }
        return nil
    }

    /// Whether `pattern` (fnmatch(3)) names the input: by its name, or with a `/` by its path
    /// below the folder given to the run (or its absolute path).
    static func matches(_ pattern: String, input: DiscoveredInput) -> Bool {
        let name = (input.path as NSString).lastPathComponent
        if !pattern.contains("/") { return fnmatch(pattern, name, 0) == 0 }
        let target = pattern.hasPrefix("/") ? input.path : input.relativePath
        return fnmatch(pattern, target, FNM_PATHNAME) == 0
    }
}
