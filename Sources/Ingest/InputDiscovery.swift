import Foundation

/// An input found under one of the paths a user gave.
public struct DiscoveredInput: Hashable, Sendable {
    /// Standardised absolute path (the store's key). A name that is not UTF-8 is shown with
    /// its non-ASCII bytes escaped (`\xFF`).
    public var path: String
    /// The path the user gave that led here (for folder-based device identity).
    public var root: String
    /// Why this entry is not read, or nil for a file (or export folder) to read.
    public var problem: DiscoveryProblem?

    public init(path: String, root: String, problem: DiscoveryProblem? = nil) {
        self.path = path
        self.root = root
        self.problem = problem
    }
}

/// Why a path under the inputs is not read.
public enum DiscoveryProblem: Hashable, Sendable {
    /// Not a regular file (a FIFO, socket, device, a link to nothing, a folder met twice
    /// through links): listed as skipped with this description, never opened.
    case notRegular(String)
    /// A file or folder that cannot be read (permissions, a name that is not UTF-8):
    /// quarantined with this reason.
    case unreadable(String)
}

/// Walks the given files and folders in a stable (sorted) order.
///
/// Hidden files and folders are skipped; a folder that is a Sensor Logger export is one input;
/// a file given by itself brings the `manifest.csv` beside it; manifests are listed first so
/// identities are known before data is read. Only regular files are read: FIFOs, sockets,
/// devices and links to nothing are listed with a `notRegular` problem (reading one would
/// hang or never end), and each folder is entered once, by its (device, inode), so links that
/// loop back end the walk. Names that are not UTF-8 and folders that cannot be listed come
/// back with an `unreadable` problem, so every file is accounted for.
public enum InputDiscovery {
    public static func discover(_ paths: [String]) throws -> [DiscoveredInput] {
        var found: [DiscoveredInput] = []
        var visited = Set<[UInt64]>()
        for given in paths {
            let root = InputPath.standardise(given)
            switch FileKind(path: root) {
            case .missing:
                throw InputError(.unreadable, "no such file or folder", path: given)
            case .folder(let device, let inode):
                visited.insert([device, inode])
                walk(root, root: root, visited: &visited, into: &found)
            case .other(let kind):
                found.append(DiscoveredInput(path: root, root: root, problem: .notRegular(kind)))
            case .regular:
                // A file given by itself is named by its folder, as if that folder's parent had been
                // given, and a manifest.csv beside it applies.
                let folder = (root as NSString).deletingLastPathComponent
                let parent = (folder as NSString).deletingLastPathComponent
                found.append(DiscoveredInput(path: root, root: parent))
                let manifest = (folder as NSString).appendingPathComponent("manifest.csv")
                if FileKind(path: manifest) == .regular { found.append(DiscoveredInput(path: manifest, root: parent)) }
            }
        }
        var seen = Set<String>()
        let unique = found.filter { seen.insert($0.path).inserted }
        return unique.filter(isManifest) + unique.filter { !isManifest($0) }
    }

    static func isManifest(_ input: DiscoveredInput) -> Bool {
        input.problem == nil && (input.path as NSString).lastPathComponent.lowercased() == "manifest.csv"
    }

    private static func walk(_ folder: String, root: String, visited: inout Set<[UInt64]>, into found: inout [DiscoveredInput]) {
        let entries: [FolderEntry]
        switch FolderEntry.list(folder) {
        case .success(let list): entries = list.filter { !$0.name.hasPrefix(".") }.sorted { $0.name < $1.name }
        case .failure(let error):
            return found.append(DiscoveredInput(path: folder, root: root, problem: .unreadable("cannot list the folder (\(error))")))
        }
        let names = entries.map(\.name)
        if folder != root || !names.isEmpty, SensorLogger.isExport(fileNames: names) || Phyphox.isExport(folder: folder, fileNames: names) {
            found.append(DiscoveredInput(path: folder, root: root))
            return
        }
        for entry in entries {
            let path = (folder as NSString).appendingPathComponent(entry.name)
            guard entry.isValidUTF8 else {
                found.append(DiscoveredInput(path: path, root: root, problem: .unreadable(
                    "the name is not valid UTF-8 (its bytes are shown escaped); rename it to have it read")))
                continue
            }
            switch FileKind(path: path) {
            case .regular:
                found.append(DiscoveredInput(path: path, root: root))
            case .folder(let device, let inode):
                if visited.insert([device, inode]).inserted {
                    walk(path, root: root, visited: &visited, into: &found)
                } else {
                    found.append(DiscoveredInput(path: path, root: root, problem: .notRegular("a folder already walked (a symbolic link back into the inputs)")))
                }
            case .other(let kind):
                found.append(DiscoveredInput(path: path, root: root, problem: .notRegular(kind)))
            case .missing(let reason):
                found.append(DiscoveredInput(path: path, root: root, problem: .unreadable("cannot read its status (\(reason))")))
            }
        }
    }
}
