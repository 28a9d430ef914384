import Foundation
import Ingest
import MobilityCore
import Transit

/// Loads the `--transit` feeds for the trip stage and says what they gave.
public enum TransitRun {
    /// The feeds of `paths` (GTFS zips, feed folders, folders of feeds) read and indexed
    /// together, one log line per feed; `description` ("feed NAME: N stops (…), M corridors …",
    /// or "feeds A: …; B: …") is what the trip stage keeps for the report.
    public static func index(feeds paths: [String], progress: ProgressReporter) throws -> (network: TransitNetwork, description: String) {
        let network = try TransitNetwork.load(paths: paths) { progress.log($0) }
        if network.index.stops.isEmpty {
            progress.log(
                "warning: transit: no stop of the feeds is served by a rail, bus or ferry route: legs get no transit evidence from them")
        }
        let parts = network.feeds.map { "\($0.name): \($0.summary)" }
        return (network, (parts.count == 1 ? "feed " : "feeds ") + parts.joined(separator: "; "))
    }

    /// Whether every path names a feed or a folder of feeds (`TransitNetwork.feedPaths`), before
    /// any stage: the error names the option or key the paths came from (`source`).
    public static func check(feeds paths: [String], from source: String) throws {
        do { _ = try TransitNetwork.feedPaths(paths) } catch let error as PipelineError {
            throw PipelineError(error.code, "\(source) \(error.message)")
        }
    }

    /// The feeds' content, for a run's no-op check: per feed in order, the SHA-256 of a zip, or
    /// of a folder's files (names and contents, in name order).
    public static func contentHash(feeds paths: [String]) throws -> String {
        try TransitNetwork.feedPaths(paths).map { path in
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            guard isFolder.boolValue else { return try ContentHash.sha256(path: path) }
            let names = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".txt") }.sorted()
            return names.map { name in "\(name) " + ((try? ContentHash.sha256(path: (path as NSString).appendingPathComponent(name))) ?? "")
            }
            .joined(separator: "\n")
        }.joined(separator: "\n\n")
    }
}
