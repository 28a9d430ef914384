import Foundation
import MobilityCore
import Trips

/// `restricted/review.csv`: per person, the legs the pipeline was least sure of, to ask them
/// about (their answers go to `corrections.csv`). A leg's certainty is what its decider said of
/// it: the GPS leg model's probability of the mode it chose, or the share of the leg's IMU
/// windows that agree with it. Legs no source could name, legs only known to be in a vehicle
/// and legs the speed rules named have no certainty and come first; then the least certain.
/// Legs a person already corrected, flights and jumps (decided by speeds) and still legs are
/// not asked about. At most `perPerson` a person, longest first among equals.
public enum ReviewOutput {
    public static let fileName = OutputSchema.review.file
    /// Legs asked about per person. Default 5.
    public static let perPerson = 5

    /// Writes the file into `outputFolder`'s `restricted/`; returns its rows.
    @discardableResult
    public static func write(tablesFolder: String, persons: [String: String], outputFolder: String) throws -> Int {
        let (legs, column) = (try OutputSchema.triplegs.read(in: tablesFolder), OutputSchema.triplegs.index)
        let probabilities = OutputSchema.gpsLegModes.map { column("gps_p_\($0.rawValue)") }
        struct Candidate { var row: [String?], person: String, certainty: Double?, why: String, seconds: Double }
        var byPerson: [String: [Candidate]] = [:]
        for row in legs.rows {
            let source = row[column("mode_source")], mode = row[column("travel_mode")] ?? unknownModeName
            guard ![Decider.correction.rawValue, Decider.plausibility.rawValue].contains(source ?? ""), mode != Mode.still.rawValue
            else { continue }
            let device = row[column("device")] ?? ""
            let gps = probabilities.compactMap { row[$0].flatMap(Double.init) }.max()
            let imu = row[column("imu_mode_share")].flatMap(Double.init)
            let (certainty, why): (Double?, String) =
                switch (mode, source) {
                case (unknownModeName, _): (nil, "no source could name its mode")
                case (Mode.vehicle.rawValue, _): (nil, "only known to be in a vehicle")
                case (_, Decider.gpsRules.rawValue?): (nil, "named by the speed rules alone")
                case (_, Decider.gpsLegModel.rawValue?): (gps, "the GPS leg model's probability of its mode")
                case (_, Decider.transit.rawValue?): (nil, "named by the transit feed's stops and corridors")
                default:
                    (imu ?? gps, imu != nil ? "the share of its IMU windows that agree" : "the GPS leg model's probability of its mode")
                }
            byPerson[persons[device] ?? device, default: []].append(
                Candidate(
                    row: row, person: persons[device] ?? device, certainty: certainty, why: why,
                    seconds: row[column("duration_s")].flatMap(Double.init) ?? 0))
        }
        var csv = CSVWriter(columns: OutputSchema.review.names)
        var count = 0
        for person in byPerson.keys.sorted() {
            let asked = byPerson[person]!.sorted {
                ($0.certainty ?? -1, -$0.seconds, $0.row[column("tripleg_id")] ?? "") < (
                    $1.certainty ?? -1, -$1.seconds, $1.row[column("tripleg_id")] ?? ""
                )
            }.prefix(perPerson)
            for c in asked {
                let row = c.row
                csv.append(
                    [person]
                        + [
                            "device", "tripleg_id", "trip_id", "started_at", "started_unix_s", "finished_at", "finished_unix_s",
                            "duration_s", "distance_m", "travel_mode",
                            "mode_source"
                        ]
                        .map { row[column($0)] } + [c.certainty.map { String(format: "%.4f", $0) }, c.why])
                count += 1
            }
        }
        try csv.write(to: OutputLayout.path(fileName, in: outputFolder))
        return count
    }
}
