import Foundation
import Ingest
import MobilityCore
import Transit

/// Loads a `--transit` feed for the trip stage and says what it gave.
public enum TransitRun {
    /// The feed at `path` (GTFS zip or folder) indexed, with one log line of what it holds and
    /// how long it took; `description` ("PATH: N stops (…), M corridors …") is what the trip
    /// stage keeps for the report.
    public static func index(feed path: String, progress: ProgressReporter) throws -> (index: TransitIndex, description: String) {
        let started = Date()
        let feed = try GTFSFeed.load(path: path)
        let index = TransitIndex(feed)
        progress.log("transit: \(path): " + feed.summary + String(format: "; indexed in %.2f s", Date().timeIntervalSince(started)))
        if index.stops.isEmpty {
            progress.log("warning: transit: \(path) has no stop served by a rail, bus or ferry route: legs get no transit evidence from it")
        }
        return (index, "\(path): " + feed.summary)
    }

    /// The feed's content, for a run's no-op check: the SHA-256 of a zip, or of a folder's
    /// files (names and contents, in name order).
    public static func contentHash(feed path: String) throws -> String {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw PipelineError(
                .invalidTransitFeed, path: path, reason: "no such file or folder (expected a GTFS feed: a .zip or a folder)")
        }
        guard isFolder.boolValue else { return try ContentHash.sha256(path: path) }
        let names = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".txt") }.sorted()
        return names.map { name in "\(name) " + ((try? ContentHash.sha256(path: (path as NSString).appendingPathComponent(name))) ?? "") }
            .joined(separator: "\n")
    }
}
