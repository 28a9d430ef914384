import Foundation
import MobilityCore

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

    /// The path outputs show: below the folder given to the run (`alice/walk.gpx`), so a moved
    /// or re-mounted input folder gives the same outputs; a file given by itself shows its
    /// folder and name.
    public var relativePath: String {
        if path.hasPrefix(root + "/") { return String(path.dropFirst(root.count + 1)) }
        if root == "/", path.hasPrefix("/") { return String(path.dropFirst()) }
        return (path as NSString).lastPathComponent
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
    /// The pipeline's own output (the run's `--out` folder, a folder holding a store, or an
    /// output file of a store beside the inputs): listed once as skipped with this reason,
    /// never read, so a run never reads its own results back as inputs.
    case pipelineOutput(String)
}

/// The files and folders a pipeline store writes, which discovery never reads as inputs.
public enum PipelineOutputs {
    public static let storeName = StoreLocation.fileName
    /// The hidden file `pipeline export` leaves in its folder: its tables (trackintel's
    /// `positionfixes.csv` above all, a format ingest reads) are never read back as inputs.
    public static let exportMarker = ".pipeline-export"

    /// Whether `folder` holds a pipeline store (its database or its lock), itself or in its
    /// `restricted/` (`StoreLocation`): an output folder, or the restricted folder of one.
    public static func holdsStore(_ folder: String) -> Bool {
        let files = [storeName, storeName + ".lock"]
        return (files + files.map { StoreLocation.restrictedFolderName + "/" + $0 }).contains {
            FileKind(path: (folder as NSString).appendingPathComponent($0)) == .regular
        }
    }

    /// Whether `folder` is a `pipeline export` folder.
    public static func holdsExport(_ folder: String) -> Bool {
        FileKind(path: (folder as NSString).appendingPathComponent(exportMarker)) == .regular
    }

    /// Whether a file in a store's folder is one the pipeline writes there.
    public static func isOutputName(_ name: String) -> Bool {
        name.hasPrefix(storeName) || name.hasPrefix("pipeline.gpkg") || name.hasPrefix("heatmap") || name == "report.html"
            || name == "part-tables" || outputNames.contains(name)
    }

    static let outputNames: Set<String> = [
        "quarantine.csv", "modes.csv", "staypoints.csv", "dwells.csv", "locations.csv", "triplegs.csv", "trips.csv",
        "od_matrix.csv", "od_grid.csv", "od_zones.csv", "mode_shares.csv", "modal_split.csv", "device_stats.csv", "person_days.csv",
        "untracked.csv",
        "tours.csv", "person_weights.csv", "review.csv", "rides.csv",
        "stops.csv",
        "events.csv", "train_comfort.csv", "punctuality.csv",
        "route_comfort.csv", "staypoints.geojson", "triplegs.geojson", "dwells.geojson", "spark_summary.json", "parquet", "logs",
        "restricted", "releases"
    ]
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
///
/// The pipeline's own outputs are never inputs: the run's output folders (`excluding`) and any
/// folder holding a store are listed once as skipped (`pipelineOutput`), not walked; when a
/// folder given to the run is itself such a folder, only the pipeline's own files in it are.
public enum InputDiscovery {
    public static func discover(_ paths: [String], excluding outputFolders: [String] = []) throws -> [DiscoveredInput] {
        var found: [DiscoveredInput] = []
        var visited = Set<[UInt64]>()
        let excluded = Set(outputFolders.map(InputPath.standardise))
        for given in paths {
            let root = InputPath.standardise(given)
            switch FileKind(path: root) {
            case .missing:
                throw InputError(.unreadable, "no such file or folder", path: given)
            case .folder(let device, let inode):
                visited.insert([device, inode])
                walk(root, root: root, excluded: excluded, visited: &visited, into: &found)
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

    private static func walk(
        _ folder: String, root: String, excluded: Set<String>, visited: inout Set<[UInt64]>,
        into found: inout [DiscoveredInput]
    ) {
        var entries: [FolderEntry]
        switch FolderEntry.list(folder) {
        case .success(let list): entries = list.filter { !$0.name.hasPrefix(".") }.sorted { $0.name < $1.name }
        case .failure(let error):
            return found.append(DiscoveredInput(path: folder, root: root, problem: .unreadable("cannot list the folder (\(error))")))
        }
        let isExport = PipelineOutputs.holdsExport(folder)
        let isOutput = excluded.contains(folder) || PipelineOutputs.holdsStore(folder) || isExport
        if isOutput, folder != root {
            return found.append(
                DiscoveredInput(
                    path: folder, root: root,
                    problem: .pipelineOutput(
                        excluded.contains(folder)
                            ? "the run's own output folder"
                            : isExport
                                ? "a `pipeline export` folder (it holds \(PipelineOutputs.exportMarker))"
                                : "a pipeline output folder (it holds \(PipelineOutputs.storeName))")))
        }
        if isExport { // an export folder given itself: every table in it is the pipeline's
            for entry in entries {
                found.append(
                    DiscoveredInput(
                        path: (folder as NSString).appendingPathComponent(entry.name), root: root,
                        problem: .pipelineOutput("a table of the `pipeline export` in this folder")))
            }
            return
        }
        if isOutput { // a store kept among the inputs: its own files are listed, not read
            for entry in entries where PipelineOutputs.isOutputName(entry.name) {
                found.append(
                    DiscoveredInput(
                        path: (folder as NSString).appendingPathComponent(entry.name), root: root,
                        problem: .pipelineOutput("an output of the pipeline store in this folder")))
            }
            entries.removeAll { PipelineOutputs.isOutputName($0.name) }
        }
        let names = entries.map(\.name)
        if folder != root || !names.isEmpty, SensorLogger.isExport(fileNames: names) || Phyphox.isExport(folder: folder, fileNames: names) {
            // An export given by itself is named as a file given by itself is: by its folder, as
            // if that folder's parent had been given (a distributed run's part is given its
            // devices' exports one by one and must name them as the whole run does).
            let parent = ((folder as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
            found.append(DiscoveredInput(path: folder, root: folder == root ? parent : root))
            return
        }
        for entry in entries {
            let path = (folder as NSString).appendingPathComponent(entry.name)
            guard entry.isValidUTF8 else {
                found.append(
                    DiscoveredInput(
                        path: path, root: root,
                        problem: .unreadable(
                            "the name is not valid UTF-8 (its bytes are shown escaped); rename it to have it read")))
                continue
            }
            switch FileKind(path: path) {
            case .regular:
                found.append(DiscoveredInput(path: path, root: root))
            case .folder(let device, let inode):
                if visited.insert([device, inode]).inserted {
                    walk(path, root: root, excluded: excluded, visited: &visited, into: &found)
                } else {
                    found.append(
                        DiscoveredInput(
                            path: path, root: root, problem: .notRegular("a folder already walked (a symbolic link back into the inputs)")))
                }
            case .other(let kind):
                found.append(DiscoveredInput(path: path, root: root, problem: .notRegular(kind)))
            case .missing(let reason):
                found.append(DiscoveredInput(path: path, root: root, problem: .unreadable("cannot read its status (\(reason))")))
            }
        }
    }
}
