import Foundation
import MobilityCore

/// Reads `corrections.csv`: what the people who made the legs say of them, applied over every
/// inferred mode (`LegCorrections`). Columns: `device` or `person` (one of them per row),
/// `start` and `end` (ISO 8601 with a UTC offset, or Z), and either `travel_mode` (any name of
/// the one mode table, `ModeNames`: `bus`, `Bus`, `subway` …) of the legs under it, or `purpose`
/// (`home`, `work`, or any word for an activity elsewhere) of the stay under it; `travel_mode`
/// `not_a_trip` (or `not a trip`) says the legs under it were no travel at all (GPS drift at
/// home, a phone left in a car). A row that cannot be used stops the
/// run with its file and line: a correction silently dropped would leave a wrong mode standing.
public enum CorrectionsReader {
    public struct Row: Sendable, Equatable {
        public var device: String?, person: String?
        public var startSeconds: Double, endSeconds: Double
        public var mode: Mode?
        public var purpose: String?
        /// The legs under it were no trip (`travel_mode` `not_a_trip`).
        public var notATrip = false
        public var line: Int
    }

    public static func read(path: String) throws -> [Row] {
        func failure(_ reason: String, line: Int) -> PipelineError {
            PipelineError(.invalidCorrections, path: path, line: line, reason: reason)
        }
        var rows: [Row] = []
        try NamedColumnsCSV.forEachRow(
            path: path,
            header: { names in
                let lower = Set(names.map { $0.lowercased() })
                guard lower.isSuperset(of: ["start", "end"]), !lower.isDisjoint(with: ["device", "person"]),
                    !lower.isDisjoint(with: ["travel_mode", "purpose"])
                else {
                    throw failure(
                        "the header should have device or person, start, end and travel_mode or purpose; it has \(names.joined(separator: ", "))",
                        line: 1)
                }
            }
        ) { row in
            let (device, person) = (row.value("device"), row.value("person"))
            guard device != nil || person != nil else { throw failure("expected a device or a person", line: row.line) }
            guard let start = row.value("start").flatMap({ ISO8601.parse($0) }), let end = row.value("end").flatMap({ ISO8601.parse($0) })
            else { throw failure("expected start and end as ISO 8601 times (2024-05-06T08:15:00+02:00)", line: row.line) }
            guard end.secondsSince1970 > start.secondsSince1970 else { throw failure("end must come after start", line: row.line) }
            let (name, purpose) = (row.value("travel_mode"), row.value("purpose"))
            guard (name == nil) != (purpose == nil) else { throw failure("expected one of travel_mode and purpose", line: row.line) }
            var mode: Mode?
            let notATrip = name.map { ModeNames.normalise($0) == Self.notATrip } ?? false
            if let name, !notATrip {
                guard let known = Mode(labelName: name) else {
                    throw failure(
                        "travel_mode \(name) is no mode the mode table knows (docs/inputs.md: walk, bike, car, bus, train …), nor not_a_trip",
                        line: row.line)
                }
                mode = known
            }
            rows.append(
                Row(
                    device: device, person: person, startSeconds: start.secondsSince1970, endSeconds: end.secondsSince1970, mode: mode,
                    purpose: purpose?.lowercased(), notATrip: notATrip, line: row.line))
        }
        return rows
    }

    /// `travel_mode`'s value for legs that were no trip, as `ModeNames.normalise` spells it.
    public static let notATrip = "notatrip"
}
