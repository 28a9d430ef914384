import Foundation
import MobilityCore

/// Decides what an input is, from its name and its first lines.
///
/// Extensions choose the family (`.gpx`, `.xml`, `.plt`, `.txt`, `.csv`, `.tsv`, `.json`,
/// `.geojson`, `.zip`, each optionally `.gz`; folders that hold a Sensor Logger export); the
/// header chooses within CSV. A file whose extension is none of these is skipped (nil), so a
/// README or licence beside the data is not an error; so is a CSV that names neither a time
/// nor a sensor axis (a data set's table of subjects, say). A file that looks like sensor data
/// but matches no dialect is an `InputError` naming the columns it saw.
///
/// A column mapping (`ColumnMappings.Choice`) changes this for the files it names: one with
/// columns is the description of a table; one of `start=` alone gives a recognised format's
/// relative times their start; the run's mapping without `files=` is tried only on a table
/// nothing else reads and that it fits.
public struct FormatDetector {
    public init() {}

    public static let dataExtensions: Set<String> = ["gpx", "xml", "plt", "txt", "csv", "tsv", "json", "geojson", "zip"]

    /// The extension that decides the family, lower-cased, with `.gz` looked through.
    public static func familyExtension(_ path: String) -> String {
        var name = (path as NSString).lastPathComponent.lowercased()
        if name.hasSuffix(".gz") { name.removeLast(3) }
        return (name as NSString).pathExtension
    }

    public func detect(path: String, mapping: ColumnMappings.Choice? = nil) throws -> InputFormat? {
        // A manifest is never read with a mapping, whatever a glob matches.
        let isManifest = (path as NSString).lastPathComponent.lowercased() == "manifest.csv"
        guard case .given(let spec)? = mapping, !isManifest else {
            return try detect(path: path, fallback: isManifest ? nil : mapping?.fallbackSpec)
        }
        if !spec.isStartOnly, ["txt", "csv", "tsv"].contains(Self.familyExtension(path)), FileKind(path: path) == .regular {
            let first = try LineReader.head(path: path, limit: 1).first ?? ""
            return .imuTable(try spec.mapping(headerLine: first, path: path))
        }
        guard let format = try detect(path: path, fallback: nil) else { return nil }
        let start: Double?
        do { start = try spec.startSeconds(name: (path as NSString).lastPathComponent) } catch let error as PipelineError
            where error.code == .invalidColumnMapping
        {
            throw InputError(.badHeader, error.description, path: path)
        }
        let stored = spec.storedText(startSeconds: start)
        switch format {
        case .imuTable(var table):
            table.timeOffsetSeconds = start ?? table.timeOffsetSeconds
            table.defaultUTCOffsetSeconds = spec.utcOffsetSeconds
            table.offsetGiven = spec.entries["utc_offset"] != nil
            table.spec = stored
            return .imuTable(table)
        case .positionTable: return .positionTable(startSeconds: start, spec: stored)
        case .phyphox(let zipped, _, _): return .phyphox(zipped: zipped, startSeconds: start, spec: stored)
        case .labelsCSV, .geofenceCSV, .geofenceGeoJSON, .checkIns, .geoLifeLabels, .manifest:
            return format // tables of absolute times or places a glob also matched: read as they are
        case _ where !spec.isStartOnly && start == nil:
            return format // a table's columns matched a file that is no table (a GPX, an export): read as it is
        default:
            throw InputError(
                .badHeader,
                "the column mapping \(spec.text) names this \(format.kind.rawValue) input, whose times are absolute: "
                    + "start= and utc_offset= apply to tables and phyphox exports with relative times; remove it for this file", path: path)
        }
    }

    private func detect(path: String, fallback: ColumnMappingSpec?) throws -> InputFormat? {
        // Opening a FIFO or a device would block or never end: only regular files and folders are read.
        if case .other(let kind) = FileKind(path: path) { throw InputError(.unreadable, "\(kind), not a regular file", path: path) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw InputError(.unreadable, "no such file or folder", path: path)
        }
        if isDirectory.boolValue {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            // phyphox first: its file names (Accelerometer, Gyroscope, Location) are Sensor Logger's too; meta/time.csv is its own.
            if Phyphox.isExport(folder: path, fileNames: names) { return .phyphox(zipped: false) }
            return SensorLogger.isExport(fileNames: names) ? .sensorLogger(zipped: false) : nil
        }
        let name = (path as NSString).lastPathComponent.lowercased()
        switch FormatDetector.familyExtension(path) {
        case "gpx", "xml": return .gpx
        case "zip":
            return Phyphox.isExport(zipEntries: ZipExtraction.entryPaths(path)) ? .phyphox(zipped: true) : .sensorLogger(zipped: true)
        case "geojson": return .geofenceGeoJSON
        case "json": return try Self.looksLikeGeoJSON(path: path) ? .geofenceGeoJSON : nil // metadata.json beside recordings
        case "plt": return .plt
        case "txt", "csv", "tsv":
            if name == "manifest.csv" { return .manifest }
            return try detectText(path: path, fallback: fallback)
        default: return nil
        }
    }

    /// True when the start of a `.json` file has a GeoJSON `"type"` (a FeatureCollection,
    /// Feature or geometry); any other JSON (an app's metadata) is not a trace.
    static func looksLikeGeoJSON(path: String) throws -> Bool {
        let head = try LineReader.head(path: path, limit: 64).joined(separator: "\n")
        let types = ["FeatureCollection", "Feature", "Polygon", "MultiPolygon", "Point"]
        return head.contains("\"type\"") && types.contains { head.contains("\"\($0)\"") }
    }

    /// Why `path`, of a data extension, is not a trace (nil when the reason is its extension).
    public static func whyNotATrace(path: String) -> String? {
        switch familyExtension(path) {
        case "json":
            return "JSON that is not GeoJSON (no \"type\": \"FeatureCollection\" or \"Feature\"), so not a geofence file nor a trace"
        case "csv", "txt", "tsv":
            guard let first = try? LineReader.head(path: path, limit: 1).first else { return nil }
            return IMUDialect.notATraceMessage(firstLine: first)
        default: return nil
        }
    }

    private func detectText(path: String, fallback: ColumnMappingSpec?) throws -> InputFormat? {
        let head = try LineReader.head(path: path, limit: 5)
        // The run's mapping without files=: for a table nothing else reads, when it fits.
        let unrecognised = { () throws -> InputFormat? in
            guard let fallback, !fallback.isStartOnly, fallback.fits(lines: head) else { return nil }
            return .imuTable(try fallback.mapping(headerLine: head[0], path: path))
        }
        guard let first = head.first, !first.trimmingWhitespace().isEmpty else {
            throw InputError(.noData, "the file is empty; expected a header line", path: path, line: 1)
        }
        if PLTReader.matches(firstLine: first) { return .plt }
        if LabelReaders.isGeoLifeHeader(first) { return .geoLifeLabels }
        if AndroidEventLogReader.matches(lines: head) { return .androidEventLog }
        let delimiter = IMUDialect.guessDelimiter(first)
        let header = CSVFields.split(first, delimiter: delimiter)
        if CheckInReader.isHeader(header) { return .checkIns }
        if GeofenceReader.isCSVHeader(header) { return .geofenceCSV }
        if let mapping = IMUDialect.mapping(headerLine: first, fileName: path) { return .imuTable(mapping) }
        if PositionTableReader.matches(header: header) { return .positionTable(startSeconds: nil, spec: nil) }
        if LabelReaders.isGenericHeader(header) { return .labelsCSV }
        if let format = try unrecognised() { return format }
        guard IMUDialect.mentionsTimeOrAxes(header) else { return nil } // a metadata table, not a trace
        throw InputError(
            .badHeader, IMUDialect.noMatchMessage(header: header, fileName: (path as NSString).lastPathComponent), path: path, line: 1)
    }
}
