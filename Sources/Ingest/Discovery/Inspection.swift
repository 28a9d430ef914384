import Foundation
import MobilityCore

/// What `inspect` reports about one input: what it was detected as and what it holds,
/// without writing anything.
public struct Inspection: Encodable {
    public struct Stream: Encodable {
        public var sensor: String
        public var samples: Int
        @NullEncodable public var rateHz: Double?
        @NullEncodable public var first: String?
        @NullEncodable public var last: String?
        public var duplicateTimes: Int
        /// Rate from the median interval, and the rate the sensor measured at (seen through
        /// repeated values), Hz; gaps longer than 4 median intervals; clock jumps backwards.
        @NullEncodable public var effectiveRateHz: Double?
        @NullEncodable public var realRateHz: Double?
        @NullEncodable public var repeatFactor: Int?
        public var repeatedSamples: Int
        public var gaps: Int
        public var longestGapS: Double
        public var gapS: Double
        public var clockJumps: Int
        /// The same in one line.
        public var timing: String
    }

    public struct Problem: Encodable {
        public var reason: String
        public var count: Int
        @NullEncodable public var firstLine: Int?
    }

    public var path: String
    @NullEncodable public var format: String?
    @NullEncodable public var dialect: String?
    @NullEncodable public var device: String?
    /// The phone as the export names it (phyphox `meta/device.csv`).
    @NullEncodable public var phone: String?
    @NullEncodable public var columns: [String]?
    @NullEncodable public var first: String?
    @NullEncodable public var last: String?
    @NullEncodable public var durationS: Double?
    public var recordsRead = 0
    public var fixes = 0
    public var waypoints = 0
    @NullEncodable public var gpx: [String: Int]?
    public var streams: [Stream] = []
    public var otherSensors: [String: Int] = [:]
    public var labels: [String: Int] = [:]
    public var unknownLabelNames: [String] = []
    public var geofences = 0
    public var checkins = 0
    public var dropped: [Problem] = []
    /// Why the file would be quarantined, with `path:line:column`; nil when it reads.
    @NullEncodable public var error: String?

    /// Reads `path` with the same detection and readers as `ingest`, into a discarding sink.
    /// Identity is found as `ingest` of the file by itself finds it: from a `manifest.csv`
    /// beside it, else from its folder's name.
    public static func inspect(
        path: String, cleaning: CleaningParameters, devices: DeviceResolver,
        columns: ColumnMappings
    ) -> Inspection {
        var inspection = Inspection(path: path)
        var devices = devices
        do {
            let standard = InputPath.standardise(path)
            let folder = (standard as NSString).deletingLastPathComponent
            let root = (folder as NSString).deletingLastPathComponent
            let manifest = (folder as NSString).appendingPathComponent("manifest.csv")
            if FileManager.default.fileExists(atPath: manifest) {
                var ignored = DropCounts()
                try devices.manifest.load(path: manifest, dropped: &ignored)
            }
            let input = DiscoveredInput(path: standard, root: root)
            let entry = devices.manifest.isEmpty ? nil : devices.manifest.entry(for: standard)
            guard let format = try FormatDetector().detect(path: path, mapping: columns.choice(for: input, manifest: entry)) else {
                inspection.error = "\(path): " + (FormatDetector.whyNotATrace(path: path) ?? InputCatalog.notATraceExtension)
                return inspection
            }
            inspection.format = format.kind.rawValue
            if case .imuTable(let mapping) = format { inspection.columns = mapping.header }
            var ingestor = Ingestor(cleaning: cleaning, devices: devices)
            // Nothing else runs beside a file's inspection: the cores scan a large GPX's blocks ahead.
            ingestor.gpxBlockWorkers = Jobs.widthHere > 1 ? Jobs.widthHere : 0
            ingestor.imuReadsAhead = Jobs.widthHere > 1
            let result = try ingestor.ingest(input, format: format, into: DiscardingSink())
            inspection.fill(from: result)
        } catch {
            inspection.error = "\(error)"
        }
        return inspection
    }

    mutating func fill(from result: IngestResult) {
        dialect = result.dialect
        device = result.device
        phone = result.phoneModel
        first = result.first.map(ISO8601.format)
        last = result.last.map(ISO8601.format)
        if let start = result.first, let end = result.last { durationS = start.seconds(until: end) }
        recordsRead = result.recordsRead
        fixes = result.fixesKept
        waypoints = result.waypointsKept
        if let summary = result.gpx {
            gpx = [
                "tracks": summary.tracks, "segments": summary.segments, "track_points": summary.trackPoints,
                "routes": summary.routes, "route_points": summary.routePoints, "waypoints": summary.waypoints,
                "points_without_time": summary.pointsWithoutTime
            ]
        }
        streams = result.imuStreams.map {
            Stream(
                sensor: $0.sensor.rawValue, samples: $0.samples, rateHz: $0.rateHz, first: $0.first.map(ISO8601.format),
                last: $0.last.map(ISO8601.format), duplicateTimes: $0.duplicateTimes, effectiveRateHz: $0.effectiveRateHz,
                realRateHz: $0.realRateHz, repeatFactor: $0.repeatFactor, repeatedSamples: $0.repeatedSamples, gaps: $0.gaps,
                longestGapS: $0.longestGapSeconds, gapS: $0.gapSeconds, clockJumps: $0.clockJumps, timing: $0.timingText)
        }
        otherSensors = result.otherSensors
        for label in result.labels {
            labels[label.rawName + " → " + (label.mode?.rawValue ?? "unknown"), default: 0] += 1
            if label.mode == nil, !unknownLabelNames.contains(label.rawName) { unknownLabelNames.append(label.rawName) }
        }
        geofences = result.geofences.count
        checkins = result.checkIns.count
        dropped = result.dropped.counts.sorted { $0.key < $1.key }.map {
            Problem(reason: $0.key.rawValue, count: $0.value, firstLine: result.dropped.firstLine[$0.key])
        }
    }

    public func json() throws -> String {
        try JSONText.string(self, keys: .snakeCase, layout: .pretty)
    }
}
