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
                "Default: each device's own, from its manifest row's timezone, else from where its fixes are (the zone whose borders hold them, --time-zone-boundaries; docs/person-days.md). A manifest's timezone still wins for its devices.",
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
            "The time-zone boundary file a device's zone is looked up in from its fixes (overrides calendar.boundaries). Default: \(ShippedFile.timeZones) in the working folder, else the shipped one beside the executable (models/ above it, or share/mobility-pipeline/ under the install prefix); not read when the manifest or --time-zone gives every device's zone.",
            valueName: "file"))
    var timeZoneBoundaries: String?

    @Option(
        help: ArgumentHelp(
            "A person-day is valid from this tracked share of its length on, 0–1 (overrides person_days.minimum_coverage; default \(PersonDayParameters().minimumCoverage)).",
            valueName: "share"))
    var minCoverage: Double?

    @Option(
        help: ArgumentHelp(
            "Warn at the end of a run whose median person-day coverage is below this share of the panel's usual median (that of its earlier runs; with fewer than \(PersonDays.minimumEarlierRuns), no alarm), 0–1 (overrides person_days.coverage_floor; default \(PersonDayParameters().coverageFloor)).",
            valueName: "share"))
    var coverageFloor: Double?

    @Option(
        help: ArgumentHelp(
            "The hours of a study's day on the local clock, HH:MM-HH:MM: a person-day's coverage is that of these hours (a one-day study from 09:00 to 16:00 is valid when its phone recorded them) (overrides person_days.window). Default: none (the whole day).",
            valueName: "HH:MM-HH:MM"))
    var studyWindow: String?

    @Option(
        help: ArgumentHelp(
            "How home and work are found where no geofence of kind home or work names them: osna (by the hours of weekday stays) or freq (the longest and second-longest stayed places), trackintel's methods (overrides person_days.purpose_method; default \(PersonDayParameters().purposeMethod.rawValue)).",
            valueName: "method"))
    var purposeMethod: PlacePurposes.Method?

    /// The configuration's own checks (`Calendar.problem`, `PersonDayParameters.problem`), on
    /// what these options set: one rule whether a value comes from here or from `--config`.
    func validate() throws {
        var configuration = PipelineConfiguration()
        apply(to: &configuration)
        if let problem = configuration.calendar.problem {
            throw ValidationError("calendar.\(problem) (as --time-zone or --utc-offset-hours set it)")
        }
        if let problem = configuration.personDays.problem {
            throw ValidationError("person_days.\(problem) (as --min-coverage, --coverage-floor or --study-window set it)")
        }
    }

    func apply(to configuration: inout PipelineConfiguration) {
        if let timeZone { configuration.calendar.timeZone = timeZone }
        if let utcOffsetHours { configuration.calendar.utcOffsetHours = utcOffsetHours }
        if let timeZoneBoundaries { configuration.calendar.boundaries = timeZoneBoundaries }
        if let minCoverage { configuration.personDays.minimumCoverage = minCoverage }
        if let coverageFloor { configuration.personDays.coverageFloor = coverageFloor }
        if let purposeMethod { configuration.personDays.purposeMethod = purposeMethod }
        if let studyWindow { configuration.personDays.window = studyWindow }
    }
}
