import Ingest
import MobilityCore
import Store

extension IngestedFileRows {
    /// What the store keeps of an ingest result.
    init(_ result: IngestResult) {
        self.init(format: result.format.rawValue)
        dialect = result.dialect
        device = result.format.isDeviceRecording ? result.device : nil
        if result.format.isDeviceRecording, let identity = result.identity {
            (person, deviceSource, personSource) = (identity.person, identity.deviceSource, identity.personSource)
            timeZone = identity.timeZone
        }
        recordsRead = result.recordsRead
        fixes = result.fixesKept
        waypoints = result.waypointsKept
        firstSeconds = result.first?.secondsSince1970
        lastSeconds = result.last?.secondsSince1970
        gpx = result.gpx.map { summary in
            var counts = GPXCounts()
            (counts.tracks, counts.segments, counts.trackPoints) = (summary.tracks, summary.segments, summary.trackPoints)
            (counts.routes, counts.routePoints, counts.waypoints) = (summary.routes, summary.routePoints, summary.waypoints)
            return counts
        }
        columnMapping = result.columnMapping
        imuStreams = result.imuStreams
        otherSensors = result.otherSensors
        labels = result.labels
        geofences = result.geofences
        checkIns = result.checkIns
        dropped = result.dropped
    }
}

extension QuarantineProblem {
    init(_ error: InputError) {
        self.init(code: error.code.rawValue, reason: error.message, line: error.line, column: error.column)
    }
}

extension PipelineStore {
    /// Ingests one file into the store (see `storeIngested(path:…:read:rows:)`), keeping what
    /// `IngestedFileRows` holds of its result.
    public func storeIngested(
        path: String, contentSHA256: String, sizeBytes: Int64, runID: Int64, fileSignature: String? = nil, relativePath: String? = nil,
        read: (IngestSink) throws -> IngestResult
    ) throws -> IngestResult {
        try storeIngested(
            path: path, contentSHA256: contentSHA256, sizeBytes: sizeBytes, runID: runID, fileSignature: fileSignature,
            relativePath: relativePath, read: read, rows: IngestedFileRows.init)
    }
}
