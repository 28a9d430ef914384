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

    public struct Summary: Sendable, Encodable {
        public var format = "trackintel"
        public var folder = ""
        public var rows: [String: Int] = [:]
        public var seconds = 0.0
    }

    public func run(progress: ProgressReporter) throws -> Summary {
        let started = Date()
        return try StoreSession.run(storePath: storePath) { store in
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data("written by `pipeline export --format trackintel`; a pipeline run never reads this folder as input\n".utf8)
                .writeThroughPartial(to: URL(fileURLWithPath: (folder as NSString).appendingPathComponent(PipelineOutputs.exportMarker)))
            var summary = Summary(folder: folder)
            summary.rows = try store.writeTrackintel(to: folder)
            summary.seconds = Date().timeIntervalSince(started)
            return summary
        }
    }
}
