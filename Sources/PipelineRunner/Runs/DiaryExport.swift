import Foundation
import Ingest
import MobilityCore
import Reports
import Store

/// `pipeline export --format diary`: the travel diary (persons, days, activities, trips, legs)
/// of a store that `pipeline run` or `pipeline trips` filled, as CSV and GeoPackage layers
/// (`DiaryFiles`), in a folder marked so that no run reads it as input.
public struct DiaryExport {
    public var storePath: String
    public var folder: String

    public init(storePath: String, folder: String) { (self.storePath, self.folder) = (storePath, folder) }

    public struct Summary: Sendable, Encodable {
        public var format = "diary"
        public var folder = ""
        public var rows: [String: Int] = [:]
        public var seconds = 0.0
    }

    public func run(progress: ProgressReporter) throws -> Summary {
        let started = Date()
        return try StoreSession.run(storePath: storePath) { store in
            let rows = try store.diaryRows()
            guard !rows.days.isEmpty else {
                throw PipelineError(
                    .missingOutput,
                    "\(storePath) holds no person-days: run `pipeline run` (or `pipeline trips`) with this version first, then export the diary"
                )
            }
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data("written by `pipeline export --format diary`; a pipeline run never reads this folder as input\n".utf8)
                .writeThroughPartial(to: URL(fileURLWithPath: (folder as NSString).appendingPathComponent(PipelineOutputs.exportMarker)))
            var summary = Summary(folder: folder)
            summary.rows = try DiaryFiles(rows: rows).write(to: folder)
            summary.seconds = Date().timeIntervalSince(started)
            return summary
        }
    }
}
