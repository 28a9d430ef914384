import Foundation
import MobilityCore

/// Reads one detected input: streams its fixes and waypoints into a sink, and returns what it
/// held. Pure: it writes nothing itself (the sink may).
public struct Ingestor: Sendable {
    public var cleaning: CleaningParameters
    public var devices: DeviceResolver

    public init(cleaning: CleaningParameters = CleaningParameters(), devices: DeviceResolver) {
        self.cleaning = cleaning
        self.devices = devices
    }

    /// Reads `input`, detected as `format`. Throws `InputError` when the file is malformed as
    /// a whole; records that are individually bad are counted in the result's `dropped`.
    public func ingest(_ input: DiscoveredInput, format: InputFormat, into sink: IngestSink) throws -> IngestResult {
        let identity = devices.identify(path: input.path, root: input.root)
        var result = IngestResult(format: format.kind, device: identity.device)
        result.identity = identity
        switch format {
        case .gpx:
            let visitor = CleaningGPXVisitor(sink: sink, parameters: cleaning, result: result)
            let summary = try GPXReader(path: input.path).read(visitor: visitor)
            result = visitor.finish()
            result.gpx = summary
            result.dialect = summary.version.map { "gpx_" + $0 }
        case .plt:
            let visitor = CleaningGPXVisitor(sink: sink, parameters: cleaning, result: result)
            try PLTReader(path: input.path).read(visitor: visitor)
            result = visitor.finish()
        case .imuTable(let mapping):
            let tally = IMUTally(sink: sink, parameters: cleaning, result: result)
            tally.addRows(try TableIMUReader(path: input.path, mapping: mapping).read(visitor: tally))
            result = tally.finish()
            result.dialect = mapping.dialect
            result.columnMapping = mapping.spec
        case .positionTable(let startSeconds):
            let tally = IMUTally(sink: sink, parameters: cleaning, result: result)
            try PositionTableReader(path: input.path, startSeconds: startSeconds).read(visitor: tally)
            result = tally.finish()
            result.dialect = "position_table"
        case .androidEventLog:
            let tally = IMUTally(sink: sink, parameters: cleaning, result: result)
            tally.addRows(try AndroidEventLogReader(path: input.path).read(visitor: tally))
            result = tally.finish()
            result.dialect = "android_event_log"
        case .sensorLogger(let zipped):
            result = try readExport(result, sink: sink, dialect: "sensor_logger") {
                try SensorLoggerReader(path: input.path, zipped: zipped).read(visitor: $0)
            }
        case .phyphox(let zipped, let startSeconds):
            result = try readExport(result, sink: sink, dialect: "phyphox") {
                try PhyphoxReader(path: input.path, zipped: zipped, startSeconds: startSeconds).read(visitor: $0)
            }
        case .geoLifeLabels:
            result.labels = try LabelReaders.readGeoLife(path: input.path, device: identity.device, dropped: &result.dropped)
        case .labelsCSV:
            result.labels = try LabelReaders.readGeneric(path: input.path, device: identity.device, dropped: &result.dropped)
        case .geofenceGeoJSON:
            result.geofences = try GeofenceReader.readGeoJSON(path: input.path, dropped: &result.dropped)
        case .geofenceCSV:
            result.geofences = try GeofenceReader.readCSV(path: input.path, dropped: &result.dropped)
        case .checkIns:
            result.checkIns = try CheckInReader.read(path: input.path, dropped: &result.dropped)
        case .manifest:
            break
        }
        if [.geoLifeLabels, .labelsCSV, .geofenceGeoJSON, .geofenceCSV, .checkIns].contains(format.kind) {
            result.recordsRead += result.labels.count + result.geofences.count + result.checkIns.count + result.dropped.total
        }
        try requireData(result, path: input.path)
        if let mode = identity.mode, let first = result.first, let last = result.last {
            let source = devices.manifest.entry(for: input.path)?.mode != nil ? "manifest" : "name_pattern"
            result.labels.append(LabelInterval(device: result.device, start: first, end: last, rawName: mode, source: source))
        }
        return result
    }

    /// A phone app's multi-file export through `read`, which returns the phone it names.
    private func readExport(_ result: IngestResult, sink: IngestSink, dialect: String,
                            read: (IMUTally) throws -> String?) throws -> IngestResult {
        let tally = IMUTally(sink: sink, parameters: cleaning, result: result)
        let phone = try read(tally)
        var final = tally.finish()
        final.dialect = dialect
        final.phoneModel = phone
        return final
    }

    /// An input that yielded nothing usable at all is quarantined rather than stored empty,
    /// unless it is a GPX file (a GPX with only metadata is valid, if useless).
    private func requireData(_ result: IngestResult, path: String) throws {
        guard result.format != .gpx, result.format != .manifest else { return }
        let usable = result.fixesKept + result.imuSamples + result.labels.count + result.geofences.count
            + result.checkIns.count + result.otherSensors.values.reduce(0, +)
        if usable == 0 {
            let firstDrop = result.dropped.firstLine.values.min()
            let reasons = result.dropped.counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key.rawValue)" }
            var message = reasons.isEmpty ? "the file holds no data rows"
                : "no usable record: all \(result.dropped.total) dropped (\(reasons.joined(separator: ", ")))"
            if result.dropped.counts[.implausibleTime] != nil {
                message += "; times must lie between cleaning.earliest_time (\(cleaning.earliestTime)) and the run's clock plus "
                    + "cleaning.max_seconds_after_clock: relative times (seconds since the recording began) need their start, "
                    + "given with --columns 'start=2024-05-06T07:00:00Z;…', and historical data an earlier --earliest-time"
            }
            throw InputError(.noData, message, path: path, line: firstDrop)
        }
    }
}
