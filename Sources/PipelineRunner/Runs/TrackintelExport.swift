import Foundation
import Ingest
import MobilityCore
import Store

/// `pipeline export --format trackintel`: the store's tables as trackintel 1.4 reads them
/// (`PipelineStore.writeTrackintel`), in a folder marked so that no run reads it as input.
public struct TrackintelExport {
    public var storePath: String
    public var folder: String

    public init(storePath: String, folder: String) { (self.storePath, self.folder) = (storePath, folder) }

    public static let fileNames = PipelineStore.trackintelFileNames

    public typealias Summary = FileExportSummary

    public func run(progress: ProgressReporter) throws -> Summary {
        try FileExportSummary.run(format: "trackintel", storePath: storePath, folder: folder, read: { $0 }) {
            try $0.writeTrackintel(to: folder)
        }
    }
}
