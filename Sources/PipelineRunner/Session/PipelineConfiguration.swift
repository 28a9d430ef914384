import Classify
import Comfort
import Foundation
import HeatMaps
import Ingest
import MobilityCore
import Publication
import Trips
import Yams

/// Every stage parameter of `pipeline run`, with its default; read from an optional YAML file
/// in which any key may be left out (its default applies) and an unknown key is an error.
/// Keys are the parameters' names in snake_case, with their unit at the end
/// (`staypoints: distance_meters: 100`).
public struct PipelineConfiguration: Hashable, Sendable, Codable {
    public struct Classification: Hashable, Sendable, Codable {
        /// The mode model for traces with IMU data (see `pipeline train`); GPS-only traces and
        /// windows without IMU get the GPS-speed rules.
        public var model = "models/mode-model.json"
        /// Use the rules for every window instead of the model.
        public var rulesOnly = false
        /// Temporal smoothing of the windows' modes (HMM/Viterbi).
        public var smoothing = true
        /// Cost of a mode switch in smoothing, nats (`ModeSmoother`; the model's own value is
        /// what it was trained with, not what it must be run with).
        public var switchPenaltyNats = ModeSmoother().switchPenalty
        /// Shortest mode segment smoothing keeps, seconds.
        public var minimumSegmentSeconds = ModeSmoother().minimumSegmentSeconds
        /// Shortest run of still windows smoothing keeps still (a stop at a station), seconds.
        public var minimumStopSeconds = ModeSmoother().minimumStopSeconds

        /// The smoother these settings describe.
        public var smoother: ModeSmoother {
            ModeSmoother(
                switchPenalty: switchPenaltyNats, minimumSegmentSeconds: minimumSegmentSeconds, minimumStopSeconds: minimumStopSeconds)
        }
    }

    /// Local time (`DeviceZone`): by default each device's zone comes from its manifest row's
    /// `timezone`, else from where its fixes are; these name one for every device instead.
    public struct Calendar: Hashable, Sendable, Codable {
        /// An IANA zone (`Europe/Paris`) for every device's local hours, weekdays and dates,
        /// daylight saving applied; a manifest's `timezone` still wins for its devices. Null:
        /// each device's own (manifest, else its fixes).
        public var timeZone: String?
        /// A fixed offset from UTC for every device, hours, without daylight saving (what runs
        /// before 0.9 did, with 0); null: as `time_zone` says. `time_zone` wins over it.
        public var utcOffsetHours: Double?
        /// The time-zone boundary file a device's zone is looked up in from its fixes
        /// (`ZoneBoundaries`; default the shipped one, found beside the binary as the mode model is).
        public var boundaries = ShippedFile.timeZones

        public init() {}

        enum CodingKeys: String, CodingKey { case timeZone, utcOffsetHours, boundaries }

        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            timeZone = try container.decodeIfPresent(String.self, forKey: .timeZone)
            utcOffsetHours = try container.decodeIfPresent(Double.self, forKey: .utcOffsetHours)
            boundaries = try container.decodeIfPresent(String.self, forKey: .boundaries) ?? ShippedFile.timeZones
        }

        /// Both written, null when unset, so the printed configuration shows the keys.
        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(timeZone, forKey: .timeZone)
            try container.encode(utcOffsetHours, forKey: .utcOffsetHours)
            try container.encode(boundaries, forKey: .boundaries)
        }

        /// The calendar every device's local time is in, and its source (`configuration`,
        /// `utc_offset`); nil when each device's own is to be found.
        public var configured: (calendar: CalendarKeys, source: String)? {
            if let timeZone, let calendar = CalendarKeys(zone: timeZone) { return (calendar, "configuration") }
            if let utcOffsetHours { return (CalendarKeys(utcOffsetSeconds: utcOffsetHours * 3600), "utc_offset") }
            return nil
        }

        /// What belongs to no device (release windows): the configured calendar, else UTC.
        public var dataset: CalendarKeys { configured?.calendar ?? CalendarKeys() }

        /// Why the settings cannot be used, or nil.
        public var problem: String? {
            if let timeZone, CalendarKeys(zone: timeZone) == nil {
                return "time_zone \(CalendarKeys.unknownZone(timeZone))"
            }
            if let utcOffsetHours, abs(utcOffsetHours) > 14 { return "utc_offset_hours must lie within ±14" }
            return nil
        }
    }

    public struct Comfort: Hashable, Sendable, Codable {
        /// Longest ride looked for after a check-in, seconds.
        public var maxRideSeconds = RideWindow.Parameters.maxRideSeconds
        /// A horizontal jerk above this counts as strong, m/s³.
        public var jerkThresholdMetersPerSecond3 = RideMetrics.Parameters().jerkThresholdMetersPerSecond3
        /// A braking, pull-away or curve counts from this acceleration, m/s².
        public var accelerationThresholdMetersPerSecond2 = RideMetrics.Parameters().accelerationThresholdMetersPerSecond2
        /// Measure IMU recordings that no check-in covers as rides of their own.
        public var ridesFromRecordings = false
        /// A pause longer than this splits a recording into separate rides, seconds.
        public var rideGapSeconds = 60.0
        public init() {}
    }

    /// Releases on calendar windows (`ReleaseWindows`, docs/privacy.md): the trip tables of each
    /// closed window, published once into `releases/<window>/`.
    public struct Release: Hashable, Sendable, Codable {
        /// `day`, `week` (ISO) or `month`; null publishes no windowed release.
        public var window: ReleaseWindows.Period?
        /// A window closes when the data holds a trip ending this long after its end, hours.
        public var graceHours = 24.0
        public init() {}

        enum CodingKeys: String, CodingKey { case window, graceHours }

        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            window = try container.decodeIfPresent(ReleaseWindows.Period.self, forKey: .window)
            graceHours = try container.decodeIfPresent(Double.self, forKey: .graceHours) ?? graceHours
        }

        /// The window written as null when unset, so the printed configuration shows the key.
        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(window, forKey: .window)
            try container.encode(graceHours, forKey: .graceHours)
        }
    }

    /// The GTFS feeds every leg is matched against (`TransitNetwork`, `--transit`).
    public struct Transit: Hashable, Sendable, Codable {
        /// GTFS zips, feed folders (holding stops.txt) or folders of feeds; empty: no transit
        /// evidence, the legs' transit columns left empty.
        public var feeds: [String] = []
        /// When a ride is on time in `punctuality.csv` (`LinePunctuality.OnTime`): its arrival
        /// at most `on_time_late_seconds` late (default 300) and, when set, at most
        /// `on_time_early_seconds` early (default null: any earliness).
        public var onTimeEarlySeconds: Double?
        public var onTimeLateSeconds = LinePunctuality.OnTime().lateSeconds
        public init() {}

        public var onTime: LinePunctuality.OnTime {
            LinePunctuality.OnTime(earlySeconds: onTimeEarlySeconds, lateSeconds: onTimeLateSeconds)
        }

        /// Why the window cannot be used; nil when it can.
        public var problem: String? {
            guard onTimeLateSeconds >= 0, (onTimeEarlySeconds ?? 0) >= 0 else {
                return "on_time_late_seconds and on_time_early_seconds must be ≥ 0 (seconds late and early)"
            }
            return nil
        }

        enum CodingKeys: String, CodingKey { case feeds, onTimeEarlySeconds, onTimeLateSeconds }

        /// The window came later than `feeds`: a configuration an earlier run stored has none.
        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            feeds = try container.decodeIfPresent([String].self, forKey: .feeds) ?? []
            onTimeEarlySeconds = try container.decodeIfPresent(Double.self, forKey: .onTimeEarlySeconds)
            onTimeLateSeconds = try container.decodeIfPresent(Double.self, forKey: .onTimeLateSeconds) ?? onTimeLateSeconds
        }

        /// The early limit written as null when unset, so the printed configuration shows the key.
        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(feeds, forKey: .feeds)
            try container.encode(onTimeEarlySeconds, forKey: .onTimeEarlySeconds)
            try container.encode(onTimeLateSeconds, forKey: .onTimeLateSeconds)
        }
    }

    public var cleaning = CleaningParameters()
    public var classification = Classification()
    public var trips = TripStageParameters()
    public var heatmap = HeatMapParameters()
    public var comfort = Comfort()
    public var calendar = Calendar()
    /// Tracking coverage of person-days (`person_days.csv`).
    public var personDays = PersonDayParameters()
    public var release = Release()
    public var transit = Transit()
    /// Planning tables: time bands and the zone layer (`od_zones.csv`).
    public var planning = PlanningParameters()
    /// k for every published table (`privacy.k`); `heatmap`'s copy follows it.
    public var privacy = PrivacyParameters() {
        didSet { heatmap.minimumPersons = privacy.k }
    }
    /// What the file said that still works but should change (a deprecated key), to print.
    public var warnings: [String] = []

    public init() {}

    enum CodingKeys: String, CodingKey {
        case cleaning, classification, trips, heatmap, comfort, calendar, personDays, release, transit, planning, privacy
    }

    /// `release` came in 0.6, `person_days`, `planning` and `transit` later: a configuration an earlier run
    /// stored has none (`forget` reads it back).
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        cleaning = try container.decode(CleaningParameters.self, forKey: .cleaning)
        classification = try container.decode(Classification.self, forKey: .classification)
        trips = try container.decode(TripStageParameters.self, forKey: .trips)
        heatmap = try container.decode(HeatMapParameters.self, forKey: .heatmap)
        comfort = try container.decode(Comfort.self, forKey: .comfort)
        calendar = try container.decode(Calendar.self, forKey: .calendar)
        release = try container.decodeIfPresent(Release.self, forKey: .release) ?? Release()
        transit = try container.decodeIfPresent(Transit.self, forKey: .transit) ?? Transit()
        personDays = try container.decodeIfPresent(PersonDayParameters.self, forKey: .personDays) ?? PersonDayParameters()
        planning = try container.decodeIfPresent(PlanningParameters.self, forKey: .planning) ?? PlanningParameters()
        // Before `privacy`, k was the heat map's `minimum_devices`, which a stored configuration still holds.
        privacy = try container.decodeIfPresent(PrivacyParameters.self, forKey: .privacy) ?? PrivacyParameters(k: heatmap.minimumPersons)
        heatmap.minimumPersons = privacy.k // didSet does not run in an initializer
    }

    /// Reads a YAML file over the defaults.
    public static func load(path: String) throws -> PipelineConfiguration {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw PipelineError(.invalidConfiguration, path: path, reason: "cannot read the configuration file")
        }
        let parsed: Any?
        do { parsed = try Yams.load(yaml: text) } catch {
            throw PipelineError(.invalidConfiguration, path: path, reason: "not valid YAML: \(error)")
        }
        guard var parsed else { return PipelineConfiguration() }
        // k's old key (`heatmap.minimum_devices`) is taken out before the check of known keys,
        // and read as privacy.k with a warning.
        var deprecatedK: Int?
        var givenK: Int?
        if var sections = parsed as? [String: Any] {
            if var heatmap = sections["heatmap"] as? [String: Any], let old = heatmap.removeValue(forKey: "minimum_devices") {
                guard let old = old as? Int else {
                    throw PipelineError(
                        .invalidConfiguration, path: path, reason: "\(PrivacyParameters.deprecatedKey) should be an integer")
                }
                deprecatedK = old
                sections["heatmap"] = heatmap
            }
            givenK = (sections["privacy"] as? [String: Any])?["k"] as? Int
            parsed = sections
        }
        var tree = try SettingsTree(defaults: PipelineConfiguration())
        do { try tree.merge(SettingsTree(any: parsed, path: ""), path: "") } catch let error as PipelineError
            where error.code == .invalidConfiguration
        {
            throw PipelineError(.invalidConfiguration, path: path, reason: "\(error.description)")
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        var configuration: PipelineConfiguration
        do { configuration = try decoder.decode(PipelineConfiguration.self, from: JSONEncoder().encode(tree)) } catch {
            throw PipelineError(.invalidConfiguration, path: path, reason: "a value has the wrong type (\(Self.describe(error)))")
        }
        do {
            let (k, warning) = try PrivacyParameters.k(privacy: givenK, deprecated: deprecatedK)
            configuration.privacy.k = k
            if let warning { configuration.warnings.append("\(path): " + warning) }
        } catch let error as PipelineError {
            throw PipelineError(.invalidConfiguration, path: path, reason: error.message)
        }
        if let problem = PrivacyParameters.kProblem(configuration.privacy.k, allowed: true) {
            throw PipelineError(.invalidConfiguration, path: path, reason: "privacy.\(problem)")
        }
        if let problem = configuration.cleaning.problem {
            throw PipelineError(.invalidConfiguration, path: path, reason: "cleaning.\(problem)")
        }
        if let problem = configuration.calendar.problem {
            throw PipelineError(.invalidConfiguration, path: path, reason: "calendar.\(problem)")
        }
        if let problem = configuration.personDays.problem {
            throw PipelineError(.invalidConfiguration, path: path, reason: "person_days.\(problem)")
        }
        if let problem = configuration.planning.problem {
            throw PipelineError(.invalidConfiguration, path: path, reason: "planning.\(problem)")
        }
        if let problem = configuration.transit.problem {
            throw PipelineError(.invalidConfiguration, path: path, reason: "transit.\(problem)")
        }
        guard configuration.release.graceHours >= 0 else {
            throw PipelineError(.invalidConfiguration, path: path, reason: "release.grace_hours must be ≥ 0")
        }
        let classification = configuration.classification
        guard classification.switchPenaltyNats >= 0, classification.minimumSegmentSeconds >= 0, classification.minimumStopSeconds >= 0
        else {
            throw PipelineError(
                .invalidConfiguration, path: path,
                reason: "classification.switch_penalty_nats, minimum_segment_seconds and minimum_stop_seconds must be ≥ 0")
        }
        return configuration
    }

    /// The configuration as YAML, every key present, in a stable order.
    public func yaml() throws -> String {
        try SettingsTree(defaults: self).yaml(indent: 0)
    }

    /// The configuration as one JSON object, every key present, keys sorted: what programs
    /// read (the Spark job) instead of parsing the YAML.
    public func json() throws -> String {
        try JSONText.string(SettingsTree(defaults: self), keys: .asDeclared, layout: .pretty)
    }

    static func describe(_ error: Error) -> String {
        guard case let DecodingError.typeMismatch(type, context) = error else { return "\(error)" }
        let path = context.codingPath.map(\.stringValue).joined(separator: ".")
        return "\(path) should be \(type)"
    }
}
