import Foundation

/// An input found under one of the paths a user gave.
public struct DiscoveredInput: Hashable, Sendable {
    /// Standardised absolute path (the store's key).
    public var path: String
    /// The path the user gave that led here (for folder-based device identity).
    public var root: String

    public init(path: String, root: String) {
        self.path = path
        self.root = root
    }
}

/// Walks the given files and folders in a stable (sorted) order.
///
/// Hidden files and folders are skipped; a folder that is a Sensor Logger export is one input;
/// a file given by itself brings the `manifest.csv` beside it; manifests are listed first so
/// identities are known before data is read.
public enum InputDiscovery {
    public static func discover(_ paths: [String]) throws -> [DiscoveredInput] {
        var found: [DiscoveredInput] = []
        for given in paths {
            let root = InputPath.standardise(given)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory) else {
                throw InputError(.unreadable, "no such file or folder", path: given)
            }
            if isDirectory.boolValue { walk(root, root: root, into: &found) } else {
                // A file given by itself is named by its folder, as if that folder's parent had been
                // given, and a manifest.csv beside it applies.
                let folder = (root as NSString).deletingLastPathComponent
                let parent = (folder as NSString).deletingLastPathComponent
                found.append(DiscoveredInput(path: root, root: parent))
                let manifest = (folder as NSString).appendingPathComponent("manifest.csv")
                if FileManager.default.fileExists(atPath: manifest) { found.append(DiscoveredInput(path: manifest, root: parent)) }
            }
        }
        var seen = Set<String>()
        let unique = found.filter { seen.insert($0.path).inserted }
        return unique.filter(isManifest) + unique.filter { !isManifest($0) }
    }

    static func isManifest(_ input: DiscoveredInput) -> Bool {
        (input.path as NSString).lastPathComponent.lowercased() == "manifest.csv"
    }

    private static func walk(_ folder: String, root: String, into found: inout [DiscoveredInput]) {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !$0.hasPrefix(".") }
        if folder != root || !names.isEmpty, SensorLogger.isExport(fileNames: names) {
            found.append(DiscoveredInput(path: folder, root: root))
            return
        }
        for name in names.sorted() {
            let path = (folder as NSString).appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue { walk(path, root: root, into: &found) } else {
                found.append(DiscoveredInput(path: path, root: root))
            }
        }
    }
}
