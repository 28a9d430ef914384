import MobilityCore
import Trips

/// The modal split a city publishes (`mode_shares.csv`): each main mode's share of trips over
/// the whole day and per time band, with its 95 % interval over persons, and, given the
/// classifier's measured confusion, the share corrected for it with its own interval
/// (`ModeShareEstimate`).
///
/// Privacy as the modal split's: a row fewer than k persons made is left out, and so are the
/// rows that would give it away by subtraction (a band's rows add up to its trips, the bands'
/// rows of a mode to its whole-day row: `ModalSplit`'s relations, audited by
/// `CellSuppression`). Shares, intervals and corrections are computed over every trip, left-out
/// rows included, as the modal split's shares are.
public struct ModeShareTable: Sendable {
    /// One trip as the table counts it.
    public struct Trip: Sendable {
        public var person: String, startSeconds: Double, mode: String
        /// Its person's expansion weight per valid day; nil without weights.
        public var dailyWeight: Double?
        public init(person: String, startSeconds: Double, mode: String, dailyWeight: Double? = nil) {
            (self.person, self.startSeconds, self.mode, self.dailyWeight) = (person, startSeconds, mode, dailyWeight)
        }
    }

    public struct Row: Sendable, Equatable {
        /// `all_day` or a band's name.
        public var band: String
        public var share: ModeShareEstimate.Share
        /// The mode's trips expanded to the population's average day, and their share of the
        /// band's; nil without weights, or where the dominance rule leaves them out
        /// (`DominanceRule`: fewer than k weighted persons, or two of them 85 % of it). k still
        /// counts the persons of `share`, unweighted.
        public var tripsWeighted: Double? = nil, shareWeighted: Double? = nil
    }

    public var rows: [Row]
    public let minimumPersons: Int
    /// Rows under k persons, and rows left out so those cannot be worked out.
    public private(set) var suppressedPrimary = 0, suppressedComplementary = 0
    /// The trips of the whole day's rows left out under k, and beside them: what the table
    /// loses of its trips (each trip is in one whole-day row).
    public private(set) var suppressedTrips = 0, complementaryTrips = 0
    /// Published rows whose weighted values are left out: dominated, and beside them.
    public private(set) var dominatedWeights = 0, complementaryWeights = 0
    /// Per published table, the margins (`all_day`, bands) the rows were audited against its
    /// rows in (`SplitMargins`); empty when audited alone.
    public private(set) var auditedMargins: [String: [String]] = [:]
    /// The table's rows as margins for the tables of the same trips after it (`od_zones.csv`,
    /// `co2e.csv`): published or left out, under k or not.
    public private(set) var published = SplitMargins(table: "mode_shares.csv", recoded: [], margins: [:])
    /// Counts under k left out (and the split's, where audited against it) whose feasible
    /// interval no complement widened to ±k.
    public private(set) var narrowCounts = 0

    public init(
        _ trips: [Trip], calendars: LocalCalendars, bands: TimeBands, minimumPersons: Int, correction: ConfusionCorrection? = nil,
        replicates: Int = ModeShareEstimate.defaultReplicates, margins: [SplitMargins] = []
    ) {
        self.minimumPersons = minimumPersons
        let groups = [TimeBands.allDay] + bands.names
        var counts: [String: [String: [String: Int]]] = [:] // band → person → mode → trips
        var weighted: [String: [String: Double]] = [:] // band → mode → weighted trips
        var weightParts: [String: [String: [String: Double]]] = [:] // band → mode → person → weighted trips
        let hasWeights = trips.contains { $0.dailyWeight != nil }
        var calendar: (person: String, keys: CalendarKeys)?
        for trip in trips {
            if calendar?.person != trip.person { calendar = (trip.person, calendars.person(trip.person)) }
            let band = bands.name(startSeconds: trip.startSeconds, calendar: calendar!.keys)
            for group in [TimeBands.allDay, band] {
                counts[group, default: [:]][trip.person, default: [:]][trip.mode, default: 0] += 1
                weighted[group, default: [:]][trip.mode, default: 0] += trip.dailyWeight ?? 0
                weightParts[group, default: [:]][trip.mode, default: [:]][trip.person, default: 0] += trip.dailyWeight ?? 0
            }
        }
        var all: [Row] = []
        // Every band over the whole day's modes: a band without car trips is evidence about cars too.
        let modes = Array(Set(trips.map(\.mode)))
        for group in groups {
            guard let persons = counts[group] else { continue }
            let estimate = ModeShareEstimate(persons: persons, modes: modes, correction: correction, replicates: replicates)
            // Added in mode order: a dictionary's order would change the last digit from run to run.
            let whole = weighted[group]!.sorted { $0.key < $1.key }.reduce(0) { $0 + $1.value }
            all += estimate.shares.filter { $0.trips > 0 }.map { share in
                var row = Row(band: group, share: share)
                if hasWeights {
                    row.tripsWeighted = weighted[group]![share.mode] ?? 0
                    row.shareWeighted = whole > 0 ? row.tripsWeighted! / whole : 0
                }
                return row
            }
        }
        // The modal split's relations: "all" is the whole day, "time_band" its bands.
        let totals = all.map {
            ModalTotal(
                dimension: $0.band == TimeBands.allDay ? "all" : "time_band", key: $0.band == TimeBands.allDay ? "all" : $0.band,
                mode: $0.share.mode, trips: $0.share.trips, distanceMeters: 0, durationSeconds: 0, persons: $0.share.persons)
        }
        // Against the modal split's published rows, of which these trips are some (`SplitMargins`).
        let (hidden, linked, narrow) = ModalSplit.suppressed(totals, minimumPersons: minimumPersons, margins: margins)
        (auditedMargins, narrowCounts) = (linked, narrow)
        for (index, row) in all.enumerated() {
            published.margins[row.band, default: []].append(
                .init(
                    mode: row.share.mode, trips: row.share.trips, published: !hidden.contains(index),
                    underK: row.share.persons < minimumPersons))
        }
        suppressedPrimary = all.filter { $0.share.persons < minimumPersons }.count
        suppressedComplementary = hidden.count - suppressedPrimary
        for index in hidden where all[index].band == TimeBands.allDay {
            if all[index].share.persons < minimumPersons {
                suppressedTrips += all[index].share.trips
            } else {
                complementaryTrips += all[index].share.trips
            }
        }
        if hasWeights {
            // The weighted trips, a magnitude: the dominance rule, then the same relations' audit
            // from the rows the counts left out.
            let dominated = all.map {
                !DominanceRule.publishes(Array((weightParts[$0.band]?[$0.share.mode] ?? [:]).values), k: minimumPersons)
            }
            let left = ModalSplit.suppressed(totals, sensitive: dominated, sizes: all.map { $0.tripsWeighted ?? 0 }, initial: hidden)
            for index in all.indices where left.contains(index) {
                if !hidden.contains(index) { if dominated[index] { dominatedWeights += 1 } else { complementaryWeights += 1 } }
                (all[index].tripsWeighted, all[index].shareWeighted) = (nil, nil)
            }
        }
        rows = all.enumerated().filter { !hidden.contains($0.offset) }.map(\.element)
    }
}
