import MobilityCore

/// The heat-map stage's settings, with their defaults.
public struct HeatMapParameters: Hashable, Sendable, Codable {
    /// Cell side, metres.
    public var cellMeters = 100.0
    /// k: a cell is published only when at least this many distinct persons were in it. Not a
    /// setting of its own: the configuration's `privacy.k` (Publication's `PrivacyParameters`),
    /// which every published table takes, is copied here; 3 by default.
    public var minimumPersons = 3
    /// Only fixes travelling by these modes (mode names); nil keeps all.
    public var modes: [String]?
    /// First and last local day to include, YYYY-MM-DD, inclusive.
    public var from: String?
    public var to: String?
    /// Weekdays to include, 0 = Monday … 6 = Sunday.
    public var weekdays: [Int]?
    /// Hours of the day to include, 0–23.
    public var hours: [Int]?
    /// Cell side of the origin–destination grid (`ODGrid`, `od_grid.csv`), metres; its pairs
    /// take the same k.
    public var odCellMeters = 1000.0
    /// How many times a pair under k is tried again on cells twice the size (`ODGrid`): 3
    /// publishes at 1, 2, 4 or 8 km; 0 suppresses at `odCellMeters` alone.
    public var odCoarserLevels = Self.defaultODCoarserLevels

    /// The default number of doublings of the OD grid's cell size (1 km → 8 km).
    public static let defaultODCoarserLevels = 3

    public init() {}

    enum CodingKeys: String, CodingKey {
        case cellMeters, minimumPersons = "minimumDevices", modes, from, to, weekdays, hours, odCellMeters, odCoarserLevels
    }

    /// `od_cell_meters` came in 0.5.0: a configuration a 0.4.0 run stored has none (`forget`
    /// reads it back).
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        cellMeters = try container.decode(Double.self, forKey: .cellMeters)
        // k before `privacy.k`; a configuration stored since holds it there, not here.
        minimumPersons = try container.decodeIfPresent(Int.self, forKey: .minimumPersons) ?? minimumPersons
        modes = try container.decodeIfPresent([String].self, forKey: .modes)
        from = try container.decodeIfPresent(String.self, forKey: .from)
        to = try container.decodeIfPresent(String.self, forKey: .to)
        weekdays = try container.decodeIfPresent([Int].self, forKey: .weekdays)
        hours = try container.decodeIfPresent([Int].self, forKey: .hours)
        odCellMeters = try container.decodeIfPresent(Double.self, forKey: .odCellMeters) ?? odCellMeters
        odCoarserLevels = try container.decodeIfPresent(Int.self, forKey: .odCoarserLevels) ?? odCoarserLevels
    }

    /// Unset filters are written as null (not left out), so a printed configuration shows them;
    /// k is written under `privacy`, not here.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(cellMeters, forKey: .cellMeters)
        try container.encode(modes, forKey: .modes)
        try container.encode(from, forKey: .from)
        try container.encode(to, forKey: .to)
        try container.encode(weekdays, forKey: .weekdays)
        try container.encode(hours, forKey: .hours)
        try container.encode(odCellMeters, forKey: .odCellMeters)
        try container.encode(odCoarserLevels, forKey: .odCoarserLevels)
    }

    /// The filter these settings describe, at `calendar`'s UTC offset.
    public func filter(calendar: CalendarKeys) throws -> HeatMapFilter {
        var filter = HeatMapFilter()
        filter.calendar = calendar
        if let modes {
            filter.modes = Set(
                try modes.map { name in
                    guard let mode = Mode(rawValue: name) else {
                        throw PipelineError(
                            .invalidConfiguration,
                            "unknown mode \(name) (expected one of \(Mode.allCases.map(\.rawValue).joined(separator: ", ")))")
                    }
                    return mode
                })
        }
        filter.firstDay = try from.map { try Self.day($0) }
        filter.lastDay = try to.map { try Self.day($0) }
        if let weekdays {
            guard weekdays.allSatisfy((0...6).contains) else {
                throw PipelineError(.invalidConfiguration, "weekdays run from 0 (Monday) to 6 (Sunday)")
            }
            filter.weekdays = Set(weekdays)
        }
        if let hours {
            guard hours.allSatisfy((0...23).contains) else { throw PipelineError(.invalidConfiguration, "hours run from 0 to 23") }
            filter.hours = Set(hours)
        }
        guard cellMeters > 0 else { throw PipelineError(.invalidConfiguration, "the cell size must be positive, got \(cellMeters)") }
        guard odCellMeters > 0 else {
            throw PipelineError(.invalidConfiguration, "heatmap.od_cell_meters must be positive, got \(odCellMeters)")
        }
        guard (0...8).contains(odCoarserLevels) else {
            throw PipelineError(
                .invalidConfiguration, "heatmap.od_coarser_levels must be 0 to 8 (doublings of od_cell_meters), got \(odCoarserLevels)")
        }
        guard minimumPersons >= 1 else {
            throw PipelineError(.invalidConfiguration, "k (privacy.k, which counts persons) must be 1 or more")
        }
        return filter
    }

    static func day(_ text: String) throws -> Int {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, (1...12).contains(parts[1]), (1...31).contains(parts[2]) else {
            throw PipelineError(.invalidConfiguration, "\(text) is not a date (expected YYYY-MM-DD)")
        }
        return ISO8601.days(year: parts[0], month: parts[1], day: parts[2])
    }

    /// A short human description of the filter, for titles and the store.
    public var filterDescription: String {
        var parts: [String] = []
        if let modes { parts.append("modes " + modes.joined(separator: "+")) }
        if from != nil || to != nil { parts.append("days \(from ?? "…")–\(to ?? "…")") }
        if let weekdays { parts.append("weekdays " + weekdays.sorted().map { CalendarKeys.weekdayNames[$0] }.joined(separator: ",")) }
        if let hours { parts.append("hours " + hours.sorted().map(String.init).joined(separator: ",")) }
        return parts.isEmpty ? "all fixes" : parts.joined(separator: "; ")
    }
}
