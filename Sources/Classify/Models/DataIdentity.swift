import Features
import Foundation
import Ingest
import MobilityCore

/// The content and identity of the recordings a model trained on or an evaluation scored: each
/// trace's SHA-256, device and person, found by the same discovery and identity rules as ingest
/// (`InputListing`), so training records what it used and `evaluate` can tell data the model
/// has seen from data it has not, by content and by person, never by path.
public struct DataIdentity: Sendable {
    /// By trace (the standardised path the windows name).
    public var inputs: [String: ModeModel.Provenance.TrainingInput]

    /// The identities of the traces of `windows`, found under `paths` as `listing` finds them.
    public init(paths: [String], listing: InputListing, windows: [String: Int]) throws {
        var inputs: [String: ModeModel.Provenance.TrainingInput] = [:]
        var listing = listing
        listing.paths = paths
        for entry in try listing.run() {
            guard let count = windows[entry.path] else { continue }
            let shown = DiscoveredInput(path: entry.path, root: Self.root(of: entry.path, among: paths)).relativePath
            inputs[entry.path] = .init(
                path: shown, sha256: try ContentHash.sha256(path: entry.path), device: entry.device,
                person: entry.person, windows: count)
        }
        self.inputs = inputs
    }

    /// The named person of each file under `paths` (a manifest's `person`, a name pattern's
    /// `(?<person>…)`), by trace; a file whose person is its device is left out, so an empty
    /// result means nobody is named and a device stands for a person.
    public static func persons(paths: [String], listing: InputListing) throws -> [String: String] {
        var listing = listing
        listing.paths = paths
        var persons: [String: String] = [:]
        for entry in try listing.run() where entry.personSource != "device" { persons[entry.path] = entry.person }
        return persons
    }

    /// How an evaluation's groups were made, said beside its scores: by person when any is
    /// named, else by device, which is a person only if nobody carried two.
    /// `groupBy` nil: no folds (a saved model scored), only the intervals.
    public static func grouping(_ groupBy: GroupedCrossValidation.GroupBy?, persons: [String: String]) -> String {
        persons.isEmpty
            ? "no person is named (a manifest.csv person column or --name-pattern's (?<person>…) group names them): each device counts as a person"
                + (groupBy == .person ? ", and the folds group by device" : "")
            : "\(Set(persons.values).count) persons named"
    }

    /// The folder given to the run that holds `path` (its own folder for a file given by itself).
    static func root(of path: String, among given: [String]) -> String {
        let roots = given.map(InputPath.standardise)
        return roots.filter { path.hasPrefix($0 + "/") }.max { $0.count < $1.count } ?? (path as NSString).deletingLastPathComponent
    }

    /// The data set of each of `traces`: the path of `paths`, as given, that holds it (the
    /// innermost, when one given folder holds another). For `evaluate --group-by dataset` and
    /// its per-data-set scores, where each path given is one data set.
    public static func datasets(of traces: Set<String>, paths: [String]) -> [String: String] {
        let roots = paths.map { (given: $0, path: InputPath.standardise($0)) }
        var datasets: [String: String] = [:]
        for trace in traces {
            let holders = roots.filter { trace == $0.path || trace.hasPrefix($0.path == "/" ? "/" : $0.path + "/") }
            if let root = holders.max(by: { $0.path.count < $1.path.count }) { datasets[trace] = root.given }
        }
        return datasets
    }

    /// The names the data sets `given` (paths, as given) go by in a model file and an
    /// evaluation: each its folder's name, never the path it had on the machine that trained
    /// (which says nothing to the model's users and may name people); where two share one, as
    /// many of the folders above it as tell them apart ("2019/legs", "2020/legs"), so two data
    /// sets never merge under one name.
    public static func names(ofDatasets given: some Sequence<String>) -> [String: String] {
        let paths = Dictionary(
            uniqueKeysWithValues: Set(given).map { ($0, InputPath.standardise($0).split(separator: "/").map(String.init)) })
        var names: [String: String] = [:]
        for (dataset, components) in paths {
            var depth = 1
            // The fewest trailing folders no other data set ends with (one folder given twice is one).
            while depth < components.count,
                paths.contains(where: { $0.value != components && $0.value.suffix(depth) == components.suffix(depth) })
            {
                depth += 1
            }
            names[dataset] = components.isEmpty ? "/" : components.suffix(depth).joined(separator: "/")
        }
        return names
    }

    /// The traces of `traces` that lie under one of `under` (each one of `paths`, as given).
    public static func traces(_ traces: Set<String>, under: [String], paths: [String]) -> Set<String> {
        guard !under.isEmpty else { return [] }
        let sets = datasets(of: traces, paths: paths), wanted = Set(under)
        return Set(traces.filter { sets[$0].map(wanted.contains) ?? false })
    }

    /// Windows per trace of a feature table.
    public static func windowsPerTrace(_ table: FeatureTable) -> [String: Int] {
        var counts: [String: Int] = [:]
        for window in table.windows { counts[window.trace, default: 0] += 1 }
        return counts
    }
}
