import Foundation
import MobilityCore
import Trips

/// What the planning tables are drawn from, read once from the restricted tables a run or a
/// Spark merge wrote (`trips.csv`, `staypoints.csv`; `person_days.csv` and `locations.csv` from
/// the output folder's `restricted/`), so a single run and `pipeline publish` count the same
/// trips with the same code.
///
/// Planning tables count the trips of valid person-days only (`person_days.valid`,
/// `PersonDayParameters.minimumCoverage`): a day a phone barely recorded would count as a day
/// without travel. The trips and person-days left out are counted and said.
public struct PlanningSample: Sendable {
    /// The trips of valid person-days.
    public var trips: [PlanningTrip] = []
    /// Valid person-days per person.
    public var validDays: [String: Int] = [:]
    /// Person-days in all, those below the coverage threshold, and the trips on them (left out).
    public var personDays = 0, invalidPersonDays = 0, tripsOnInvalidDays = 0
    /// Each person's home (the location their first device's stays call home), where one is found.
    public var homes: [String: (latitude: Double, longitude: Double)] = [:]

    /// `persons`: each device's person (the device itself where none is named).
    public static func read(outputFolder: String, tablesFolder: String, persons: [String: String], calendars: LocalCalendars) throws
        -> PlanningSample
    {
        var sample = PlanningSample()
        let restricted = OutputLayout.restricted(in: outputFolder)
        // Valid person-days; a day listed twice (a person's devices in two parts of a Spark run) counts once.
        var valid: Set<[String]> = [], seen: Set<[String]> = []
        if FileManager.default.fileExists(atPath: (restricted as NSString).appendingPathComponent(OutputSchema.personDays.file)) {
            let (days, day) = (try OutputSchema.personDays.read(in: restricted), OutputSchema.personDays.index)
            for row in days.rows {
                guard let person = row[day("person")], let date = row[day("local_date")] else { continue }
                seen.insert([person, date])
                if row[day("valid")] == "true" { valid.insert([person, date]) }
            }
            (sample.personDays, sample.invalidPersonDays) = (seen.count, seen.subtracting(valid).count)
            for key in valid { sample.validDays[key[0], default: 0] += 1 }
        }
        let (trips, trip) = (try OutputSchema.trips.read(in: tablesFolder), OutputSchema.trips.index)
        var calendar: (person: String, keys: CalendarKeys)?
        for row in trips.rows {
            let device = row[trip("device")] ?? ""
            let person = persons[device] ?? device
            let start = row[trip("started_unix_s")].flatMap(Double.init) ?? 0
            if calendar?.person != person { calendar = (person, calendars.person(person)) }
            let date = CalendarKeys.dateText(calendar!.keys.dayNumber(start))
            guard seen.isEmpty || valid.contains([person, date]) else {
                sample.tripsOnInvalidDays += 1
                continue
            }
            sample.trips.append(
                PlanningTrip(
                    device: device, person: person, startSeconds: start, origin: Self.end(row, "origin"),
                    destination: Self.end(row, "destination"),
                    durationSeconds: row[trip("duration_s")].flatMap(Double.init) ?? 0,
                    distanceMeters: row[trip("distance_m")].flatMap(Double.init) ?? 0, mainMode: row[trip("main_mode")] ?? unknownModeName,
                    co2eGrams: row[trip("co2e_g")].flatMap(Double.init), energyMegajoules: row[trip("energy_mj")].flatMap(Double.init)))
            sample.trips[sample.trips.count - 1].endsAtFix = Self.endsAtFix(row)
        }
        if seen.isEmpty { for trip in sample.trips { sample.validDays[trip.person] = 1 } } // no person-days: every trip counts
        if FileManager.default.fileExists(atPath: (restricted as NSString).appendingPathComponent(OutputSchema.locations.file)) {
            let (locations, column) = (try OutputSchema.locations.read(in: restricted), OutputSchema.locations.index)
            for row in locations.rows where row[column("purpose")] == "home" {
                guard let device = row[column("device")], let lat = row[column("lat")].flatMap(Double.init),
                    let lon = row[column("lon")].flatMap(Double.init)
                else { continue }
                let person = persons[device] ?? device
                if sample.homes[person] == nil { sample.homes[person] = (lat, lon) }
            }
        }
        return sample
    }

    /// Whether a row of `trips.csv` has an end at its first or last fix (`TripEnd.Kind`).
    public static func endsAtFix(_ row: [String?]) -> Bool {
        let column = OutputSchema.trips.index
        return [row[column("origin_kind")], row[column("destination_kind")]].contains {
            $0.flatMap(TripEnd.Kind.init(rawValue:)).map { !$0.isStay } ?? false
        }
    }

    /// Where a row of `trips.csv` began (`end` "origin") or ended ("destination"): its activity
    /// staypoint, or its first or last fix where it has none (`TripEnd`); nil for an end without
    /// a position. The OD tables place trips by these.
    public static func end(_ row: [String?], _ end: String) -> (latitude: Double, longitude: Double)? {
        let column = OutputSchema.trips.index
        guard let lat = row[column(end + "_lat")].flatMap(Double.init), let lon = row[column(end + "_lon")].flatMap(Double.init) else {
            return nil
        }
        return (lat, lon)
    }

    /// One sentence when the sample has person-days and none is valid (the report's first
    /// section says it); nil otherwise. It names the setting, not its value: `pipeline publish`
    /// after a distributed run reads only the days' validity (`person_days.csv`).
    public var noValidDay: String? {
        guard personDays > 0, invalidPersonDays == personDays else { return nil }
        return "No person-day was tracked enough of its day or study window to be valid (person_days.minimum_coverage)"
            + PersonDays.Summary.noValidDayConsequence
    }

    /// One line for the log and the report.
    public var text: String {
        personDays == 0
            ? "planning tables: no person-days (an output of an earlier version): every trip counts"
            : "planning tables count the \(trips.count) trips of \(personDays - invalidPersonDays) valid person-days; "
                + "\(invalidPersonDays) person-days under the coverage threshold (person_days.minimum_coverage) and their \(tripsOnInvalidDays) trips are left out"
    }
}
