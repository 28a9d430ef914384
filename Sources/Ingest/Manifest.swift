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
        var columns: [String: Int] = [:]
        try LineReader(path: path).forEachLine { line, number in
            let fields = CSVFields.split(String(decoding: line, as: UTF8.self))
            if number == 1 {
                for (index, name) in fields.enumerated() { columns[name.lowercased()] = index }
                guard columns["path"] != nil, columns["device"] != nil else {
                    throw InputError(.badHeader, "a manifest needs the columns path,device[,mode]; saw [\(fields.joined(separator: ", "))]", path: path, line: 1)
                }
                return true
            }
            guard !line.isEmpty else { return true }
            let value = { (name: String) -> String? in
                columns[name].flatMap { $0 < fields.count && !fields[$0].isEmpty ? fields[$0] : nil }
            }
            guard let file = value("path"), let device = value("device") else {
                dropped.record(.malformedRow, line: number)
                return true
            }
            let absolute = file.hasPrefix("/") ? file : (folder as NSString).appendingPathComponent(file)
            entries[InputPath.standardise(absolute)] = Entry(device: device, mode: value("mode"))
            return true
        }
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
