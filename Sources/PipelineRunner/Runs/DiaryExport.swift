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

    public typealias Summary = FileExportSummary

    public func run(progress: ProgressReporter) throws -> Summary {
        try FileExportSummary.run(
            format: "diary", storePath: storePath, folder: folder,
            read: { store in
                let rows = try store.diaryRows()
                guard !rows.days.isEmpty else {
                    throw PipelineError(
                        .missingOutput,
                        "\(storePath) holds no person-days: run `pipeline run` (or `pipeline trips`) with this version first, then export the diary"
                    )
                }
                return rows
            }, write: { try DiaryFiles(rows: $0).write(to: folder) })
    }
}
