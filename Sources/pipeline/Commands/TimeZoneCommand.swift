import ArgumentParser
import Foundation
import MobilityCore
import PipelineRunner

struct TimeZoneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "time-zone",
        abstract: "Print the time zone `pipeline run` gives a place: the IANA zone whose borders hold it, with its UTC offset now.",
        discussion: """
            A device without a zone from the manifest or --time-zone takes the zone of its fixes, looked up in the \
            time-zone boundaries (timezone-boundary-builder, ODbL; docs/person-days.md). Give places as LAT,LON \
            (degrees, WGS 84), or a CSV with lat and lon columns on standard input with --csv. Prints \
            lat,lon,zone,utc_offset (CSV, the offset as UTC±HH:MM at the time given by --at, default now).
            """
    )

    @Argument(help: ArgumentHelp("Places as LAT,LON in degrees (WGS 84), e.g. 39.9042,116.4074.", valueName: "lat,lon"))
    var places: [String] = []

    @Flag(help: "Read the places from standard input instead: a CSV whose header names lat and lon columns (degrees).")
    var csv = false

    @Option(
        help: ArgumentHelp(
            "The time-zone boundary file. Default: \(ShippedFile.timeZones) in the working folder, else the shipped one beside the executable.",
            valueName: "file"))
    var timeZoneBoundaries = ShippedFile.timeZones

    @Option(
        help: ArgumentHelp(
            "The instant whose UTC offset is printed, ISO 8601 (e.g. 2024-07-01T12:00:00Z). Default: now.", valueName: "time"))
    var at: String?

    func validate() throws {
        if places.isEmpty && !csv { throw ValidationError("give places as LAT,LON, or --csv with a CSV on standard input") }
        if !places.isEmpty && csv { throw ValidationError("give places as arguments or --csv, not both") }
        for place in places where Self.parse(place) == nil {
            throw ValidationError("\(place): expected LAT,LON in degrees, latitude within ±90 and longitude within ±180")
        }
        if let at, ISO8601.parse(at) == nil { throw ValidationError("--at \(at): expected an ISO 8601 time such as 2024-07-01T12:00:00Z") }
    }

    func run() throws {
        let path = ShippedFile.resolve(timeZoneBoundaries, default: ShippedFile.timeZones)
        let (boundaries, points) = try runStage(json: false, progress: ProgressReporter()) {
            (try ZoneBoundaries(contentsOf: path), csv ? try Self.readCSV() : places.compactMap(Self.parse))
        }
        let instant = at.flatMap { ISO8601.parse($0)?.secondsSince1970 } ?? Date().timeIntervalSince1970
        print("lat,lon,zone,utc_offset")
        for (latitude, longitude) in points {
            let zone = boundaries.zone(latitude: latitude, longitude: longitude)
            let offset = CalendarKeys(zone: zone).map { CalendarKeys.offsetName($0.offsetSeconds(at: instant)) } ?? ""
            print("\(latitude),\(longitude),\(zone),\(offset)")
        }
    }

    static func parse(_ text: String) -> (Double, Double)? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let latitude = Double(parts[0].trimmingCharacters(in: .whitespaces)),
            let longitude = Double(parts[1].trimmingCharacters(in: .whitespaces)), abs(latitude) <= 90, abs(longitude) <= 180
        else { return nil }
        return (latitude, longitude)
    }

    /// The places of a CSV on standard input; a line that is no place is an error naming it.
    static func readCSV() throws -> [(Double, Double)] {
        var lines = (String(data: FileHandle.standardInput.readDataToEndOfFile(), encoding: .utf8) ?? "")
            .split(whereSeparator: \.isNewline).map(String.init)
        guard !lines.isEmpty else {
            throw PipelineError(.malformedTable, path: "<stdin>", reason: "no header: expected lat and lon columns")
        }
        let header = lines.removeFirst().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let lat = header.firstIndex(of: "lat"), let lon = header.firstIndex(of: "lon") else {
            throw PipelineError(
                .malformedTable, path: "<stdin>", line: 1, reason: "expected lat and lon columns, found \(header.joined(separator: ","))")
        }
        return try lines.enumerated().map { index, line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count > max(lat, lon), let point = parse("\(fields[lat]),\(fields[lon])") else {
                throw PipelineError(
                    .malformedTable, path: "<stdin>", line: index + 2, reason: "expected lat and lon in degrees, found \(line)")
            }
            return point
        }
    }
}
