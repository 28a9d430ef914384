import Foundation
import MobilityCore

/// Reads one detected input: streams its fixes and waypoints into a sink, and returns what it
/// held. Pure: it writes nothing itself (the sink may).
public struct Ingestor: Sendable {
    public var cleaning: CleaningParameters
    public var devices: DeviceResolver
    /// Threads that scan a large GPX file's blocks ahead of the reading one (`GPXReader.blockWorkers`):
    /// 0, the reading thread alone.
    public var gpxBlockWorkers = 0
    /// Whether an IMU table (or each sensor file of a phone's export) is parsed on a second
    /// thread while its samples are tallied on this one (`TableIMUReader.readsAhead`).
    public var imuReadsAhead = false

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
            var reader = GPXReader(path: input.path)
            reader.blockWorkers = gpxBlockWorkers
            let summary = try reader.read(visitor: visitor)
            result = visitor.finish()
            result.gpx = summary
            result.dialect = summary.version.map { "gpx_" + $0 }
        case .plt:
            let visitor = CleaningGPXVisitor(sink: sink, parameters: cleaning, result: result)
            try PLTReader(path: input.path).read(visitor: visitor)
            result = visitor.finish()
        case .imuTable(let mapping):
            let tally = IMUTally(sink: sink, parameters: cleaning, result: result)
            var reader = TableIMUReader(path: input.path, mapping: mapping)
            reader.readsAhead = imuReadsAhead
            tally.addRows(try reader.read(visitor: tally))
            result = tally.finish()
            result.dialect = mapping.dialect
            result.columnMapping = mapping.spec
        case .positionTable(let startSeconds, let spec):
            let tally = IMUTally(sink: sink, parameters: cleaning, result: result)
            var reader = PositionTableReader(path: input.path, startSeconds: startSeconds)
            let mapping = spec.flatMap { try? ColumnMappingSpec(text: $0) }
            reader.defaultUTCOffsetSeconds = Int(mapping?.utcOffsetSeconds ?? 0)
            reader.offsetGiven = mapping?.entries["utc_offset"] != nil
            try reader.read(visitor: tally)
            result = tally.finish()
            result.dialect = "position_table"
        case .androidEventLog:
            let tally = IMUTally(sink: sink, parameters: cleaning, result: result)
            tally.addRows(try AndroidEventLogReader(path: input.path).read(visitor: tally))
            result = tally.finish()
            result.dialect = "android_event_log"
        case .sensorLogger(let zipped):
            result = try readExport(result, sink: sink, dialect: "sensor_logger") {
                var reader = SensorLoggerReader(path: input.path, zipped: zipped)
                reader.readsAhead = imuReadsAhead
                return try reader.read(visitor: $0)
            }
        case .phyphox(let zipped, let startSeconds, _):
            result = try readExport(result, sink: sink, dialect: "phyphox") {
                var reader = PhyphoxReader(path: input.path, zipped: zipped, startSeconds: startSeconds)
                reader.readsAhead = imuReadsAhead
                return try reader.read(visitor: $0)
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
        result.columnMapping = format.userMapping
        try requireData(result, path: input.path)
        if let mode = identity.mode, let first = result.first, let last = result.last {
            let source = devices.manifest.entry(for: input.path)?.mode != nil ? "manifest" : "name_pattern"
            result.labels.append(LabelInterval(device: result.device, start: first, end: last, rawName: mode, source: source))
        }
        return result
    }

    /// A phone app's multi-file export through `read`, which returns the phone it names.
    private func readExport(
        _ result: IngestResult, sink: IngestSink, dialect: String,
        read: (IMUTally) throws -> String?
    ) throws -> IngestResult {
        let tally = IMUTally(sink: sink, parameters: cleaning, result: result)
        let phone = try read(tally)
        var final = tally.finish()
        final.dialect = dialect
        final.phoneModel = phone
        return final
    }

    /// An input that yielded nothing usable at all is quarantined rather than stored empty,
    /// with its dominant drop reason and the option that would keep those records. A GPX file
    /// with no point at all (only metadata) is valid, if useless: it is stored, and said to be
    /// metadata only; one whose every point was dropped is quarantined like any other file.
    private func requireData(_ result: IngestResult, path: String) throws {
        guard result.format != .manifest else { return }
        if result.format == .gpx, result.recordsRead == 0 { return }
        let usable =
            result.fixesKept + result.waypointsKept + result.imuSamples + result.labels.count + result.geofences.count
            + result.checkIns.count + result.otherSensors.values.reduce(0, +)
        guard usable == 0 else { return }
        let firstDrop = result.dropped.firstLine.values.min()
        let ranked = result.dropped.counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
        guard let dominant = ranked.first?.key else {
            throw InputError(.noData, "the file holds no data rows", path: path, line: firstDrop)
        }
        let reasons = ranked.map { "\($0.value) \($0.key.rawValue)" }
        let message =
            "no usable record: all \(result.dropped.total) dropped (\(reasons.joined(separator: ", "))); "
            + Self.remedy(dominant, cleaning: cleaning)
        throw InputError(.noData, message, path: path, line: result.dropped.firstLine[dominant] ?? firstDrop)
    }

    /// What keeps records dropped for `reason`, naming the option of `ingest` and `run` (or
    /// the mapping key) that does it.
    static func remedy(_ reason: DropReason, cleaning: CleaningParameters) -> String {
        switch reason {
        case .implausibleTime:
            "times must lie between --earliest-time (\(cleaning.earliestTime)) and the run's clock plus --max-seconds-after-clock "
                + "(\(FixedText.number(cleaning.maxSecondsAfterClock)) s): for historical data give an earlier time, e.g. --earliest-time 1900-01-01; "
                + "relative times (seconds since the recording began) need their start, e.g. --columns 'files=NAME; start=2024-05-06T07:00:00Z' "
                + "or a start column in manifest.csv"
        case .accuracyTooLow:
            "every fix's accuracy is worse than --max-accuracy-m (\(FixedText.number(cleaning.maxAccuracyMeters)) m); "
                + "give a larger one, e.g. --max-accuracy-m \(FixedText.number(cleaning.maxAccuracyMeters * 10)), if such fixes are wanted"
        case .speedJump:
            "every fix implies a speed above --max-speed-mps (\(FixedText.number(cleaning.maxSpeedMetersPerSecond)) m/s) from the one "
                + "before; give a larger one, e.g. --max-speed-mps \(FixedText.number(cleaning.maxSpeedMetersPerSecond * 3)), for faster travel"
        case .invalidCoordinate: "every position lies outside latitude ±90° or longitude ±180° (swapped or scaled columns?)"
        case .invalidTime, .malformedRow, .notANumber:
            "no row could be read as the format expects: check the delimiter and columns, or describe the file with --columns (see `pipeline ingest --help`)"
        case .timeBackwards, .duplicateTime: "every record repeats or goes back in time from the first: the file's times are not in order"
        case .valueOutOfRange: "every value lies outside its allowed range"
        }
    }
}

/// Numbers as messages and help show them: `150`, `86400`, `0.5`.
public enum FixedText {
    public static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
