import ArgumentParser
import MobilityCore
import PipelineRunner
import Trips

extension PlacePurposes.Method: ExpressibleByArgument {}

/// Local time and person-days' coverage and places: each overrides its key in `--config`.
struct LocalTimeOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The IANA time zone of every device's local hours, weekdays and dates, daylight saving applied (overrides calendar.time_zone).",
            discussion:
                "Default: each device's own, from its manifest row's timezone, else from where its fixes are (the nearest zone city of the tz database; docs/person-days.md). A manifest's timezone still wins for its devices.",
            valueName: "zone"))
    var timeZone: String?

    @Option(
        name: .customLong("utc-offset-hours"),
        help: ArgumentHelp(
            "A fixed offset of every device's local time from UTC, hours, without daylight saving (overrides calendar.utc_offset_hours; --time-zone wins over it). Default: none (each device's zone).",
            valueName: "h"))
    var utcOffsetHours: Double?

    @Option(
        help: ArgumentHelp(
            "A person-day is valid from this tracked share of its length on, 0–1 (overrides person_days.minimum_coverage; default \(PersonDayParameters().minimumCoverage)).",
            valueName: "share"))
    var minCoverage: Double?

    @Option(
        help: ArgumentHelp(
            "Warn at the end of a run whose median person-day coverage is below this share, 0–1 (overrides person_days.coverage_floor; default \(PersonDayParameters().coverageFloor)).",
            valueName: "share"))
    var coverageFloor: Double?

    @Option(
        help: ArgumentHelp(
            "How home and work are found where no geofence of kind home or work names them: osna (by the hours of weekday stays) or freq (the longest and second-longest stayed places), trackintel's methods (overrides person_days.purpose_method; default \(PersonDayParameters().purposeMethod.rawValue)).",
            valueName: "method"))
    var purposeMethod: PlacePurposes.Method?

    func validate() throws {
        if let timeZone, CalendarKeys(zone: timeZone) == nil {
            throw ValidationError("--time-zone \(timeZone) is not an IANA time zone (such as Europe/Paris or America/New_York)")
        }
        if let utcOffsetHours, abs(utcOffsetHours) > 14 {
            throw ValidationError("--utc-offset-hours must lie within ±14 (got \(utcOffsetHours))")
        }
        for (name, value) in [("--min-coverage", minCoverage), ("--coverage-floor", coverageFloor)] {
            if let value, !(0...1).contains(value) {
                throw ValidationError("\(name) is a share of a day and must lie within 0–1 (got \(value))")
            }
        }
    }

    func apply(to configuration: inout PipelineConfiguration) {
        if let timeZone { configuration.calendar.timeZone = timeZone }
        if let utcOffsetHours { configuration.calendar.utcOffsetHours = utcOffsetHours }
        if let minCoverage { configuration.personDays.minimumCoverage = minCoverage }
        if let coverageFloor { configuration.personDays.coverageFloor = coverageFloor }
        if let purposeMethod { configuration.personDays.purposeMethod = purposeMethod }
    }
}
