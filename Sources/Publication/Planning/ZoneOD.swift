import MobilityCore
import Trips

/// Origin–destination between a planner's zones (`ZoneLayer`), over the whole day and per time
/// band (`TimeBands`): one row per (band, origin zone, destination zone) that at least k
/// distinct persons made, intrazonal pairs included.
///
/// A trip counts from the zone of its origin to the zone of its destination (its activity
/// staypoints, or its first or last fix where it has none: `TripEnd`), in the band of its
/// departure on its person's local clock; those placed with an end at a fix are also counted
/// apart (`placedByFix`). A trip with an end in no zone is counted as `outsideTrips`, one
/// without a position at both ends (legs by time alone) as `unplacedTrips`; neither is in a
/// row. The rows and their mode shares are audited as the geofence OD's (`ODMatrix`): a pair's
/// band rows add up to its `all_day` row and a row's modes to its trips, so a row or share
/// under k is left out with what would give it away by subtraction (Hundepool et al.,
/// *Statistical Disclosure Control*, 2012, §5.2–5.3); the modes fewer than k persons used over
/// the table's trips are shown as `other` (`ModeRecoding`). No other total of the table is
/// published.
public struct ZoneOD: Sendable {
    /// A trip as the zone OD counts it (`PlanningTrip`).
    public typealias Trip = PlanningTrip

    public struct Row: Sendable, Equatable {
        /// `all_day` or a band's name.
        public var band: String
        /// Indices into the layer's zones.
        public var origin: Int, destination: Int
        public var trips: Int, devices: Int, persons: Int
        public var medianDurationSeconds: Double, medianDistanceMeters: Double
        /// Share of the row's trips by main mode (recoded), keyed by mode name; a mode whose
        /// share is left out is absent, one without trips in the row too.
        public var modeShares: [String: Double]
        /// The modes with trips in the row whose share is left out.
        public var suppressedModes: Set<String> = []
        /// The row's trips expanded to the population's average day (the sum of their persons'
        /// daily weights); nil without weights, or where the dominance rule leaves it out
        /// (`DominanceRule`: fewer than k weighted persons, or two of them 85 % of it).
        public var tripsWeighted: Double?
    }

    public var rows: [Row]
    public let minimumPersons: Int
    /// `all_day` pairs made by fewer than k persons, and their trips: in no row.
    public private(set) var suppressedPairs = 0, suppressedTrips = 0
    /// Whole-day pairs of k persons or more left out beside those under k, and their trips.
    public private(set) var complementaryPairs = 0, complementaryTrips = 0
    /// Band rows under k, and band rows of k or more left out so the first cannot be subtracted.
    public private(set) var suppressedBandRows = 0, complementaryRows = 0
    /// Trips with an end in no zone, and trips without both staypoints.
    public private(set) var outsideTrips = 0, unplacedTrips = 0
    /// Trips placed in zones with an end at their first or last fix (no stay there).
    public private(set) var placedByFix = 0
    /// Published rows whose weighted trips are left out: dominated, and beside them.
    public private(set) var dominatedWeights = 0, complementaryWeights = 0
    /// Mode shares left out of published rows: under k persons, and beside them.
    public private(set) var suppressedShares = 0, complementaryShares = 0
    /// Every band row left out, since protecting them would have taken whole-day rows.
    public private(set) var bandRowsLeftOut = false
    /// The modes shown as `other`.
    public private(set) var recoding = ModeRecoding()
    /// Counts under k left out (rows and shares, and the modal split's rows under k where the
    /// table was audited against them) whose feasible interval no complement widened to ±k.
    public private(set) var narrowCounts = 0
    /// Per published table, the margins (`all_day`, bands) the rows were audited against its
    /// rows in (`SplitMargins`); empty when audited alone.
    public private(set) var auditedMargins: [String: [String]] = [:]

    /// Rows by band (`all_day`, then the bands in order), then most trips first, then zone order.
    /// `margins`: published splits' rows of the same trips (the modal split's, the mode shares'; none: audited alone).
    public init(
        _ trips: [Trip], layer: ZoneLayer, calendars: LocalCalendars, bands: TimeBands, minimumPersons: Int,
        margins: [SplitMargins] = []
    ) {
        self.minimumPersons = minimumPersons
        struct Key: Hashable { var band: Int, origin: Int, destination: Int }
        var groups: [Key: [Trip]] = [:]
        var zoneCache: [String: Int?] = [:]
        func zone(_ point: (latitude: Double, longitude: Double)) -> Int? {
            let key = "\(point.latitude),\(point.longitude)"
            if let found = zoneCache[key] { return found }
            let found = layer.zone(latitudeDegrees: point.latitude, longitudeDegrees: point.longitude)
            zoneCache[key] = found
            return found
        }
        let bandNames = [TimeBands.allDay] + bands.names
        let bandIndex = Dictionary(uniqueKeysWithValues: bandNames.enumerated().map { ($1, $0) })
        for trip in trips {
            guard let o = trip.origin, let d = trip.destination else { unplacedTrips += 1; continue }
            guard let origin = zone(o), let destination = zone(d) else { outsideTrips += 1; continue }
            if trip.endsAtFix { placedByFix += 1 }
            let band = bandIndex[bands.name(startSeconds: trip.startSeconds, calendar: calendars.person(trip.person))]!
            groups[Key(band: 0, origin: origin, destination: destination), default: []].append(trip)
            groups[Key(band: band, origin: origin, destination: destination), default: []].append(trip)
        }
        // The rows and their mode shares, audited as the geofence OD's are (`ODMatrix`): the
        // modes fewer than k persons used over the table's trips shown as `other`, recoded before
        // the trips are grouped so that `other`'s persons are its own.
        var modePersons: [String: Set<String>] = [:]
        for (key, members) in groups where key.band == 0 {
            for trip in members { modePersons[trip.mainMode, default: []].insert(trip.person) }
        }
        let recoding = ModeRecoding(persons: modePersons.mapValues(\.count), k: minimumPersons)
        self.recoding = recoding
        func member(_ trip: Trip) -> ODGroup.Member {
            ODGroup.Member(
                device: trip.device, person: trip.person, origin: nil, destination: nil, durationSeconds: trip.durationSeconds,
                distanceMeters: trip.distanceMeters, mainMode: recoding.name(trip.mainMode), band: TimeBands.allDay)
        }
        // One canonical order for the audit, so every run leaves out the same rows.
        let keys = groups.keys.sorted { ($0.origin, $0.destination, $0.band) < ($1.origin, $1.destination, $1.band) }
        let matrix = ODMatrix(
            groups: keys.map {
                ODGroup.of(
                    groups[$0]!.map(member), band: bandNames[$0.band], origin: String($0.origin), destination: String($0.destination))
            }, minimumPersons: minimumPersons, bands: bands, recoding: recoding, margins: margins)
        auditedMargins = matrix.linkedMargins
        (suppressedPairs, suppressedTrips, complementaryPairs, complementaryTrips) = (
            matrix.suppressedPairs, matrix.suppressedTrips, matrix.complementaryPairs, matrix.complementaryTrips
        )
        (suppressedBandRows, complementaryRows, narrowCounts) = (matrix.suppressedBandRows, matrix.complementaryRows, matrix.narrowCounts)
        (suppressedShares, complementaryShares, bandRowsLeftOut) = (
            matrix.suppressedShares, matrix.complementaryShares, matrix.bandRowsLeftOut
        )
        let published = Dictionary(
            uniqueKeysWithValues: matrix.rows.map {
                (Key(band: bandIndex[$0.band]!, origin: Int($0.origin!)!, destination: Int($0.destination!)!), $0)
            })
        let hidden = Set(keys.indices.filter { published[keys[$0]] == nil })
        // The weighted trips, a magnitude: the dominance rule, then the audit of the rows'
        // relations (a pair's band rows add up to its whole day) from the rows left out.
        var relations: [[(cell: Int, sign: Double)]] = []
        var pairStart = 0
        for index in keys.indices
        where index == keys.count - 1
            || (keys[index + 1].origin, keys[index + 1].destination) != (keys[index].origin, keys[index].destination)
        {
            let pair = Array(pairStart...index)
            relations.append(pair.map { (cell: $0, sign: keys[$0].band == 0 ? -1.0 : 1.0) })
            pairStart = index + 1
        }
        let hasWeights = trips.contains { $0.dailyWeight != nil }
        let weighted = keys.map { groups[$0]!.reduce(0) { $0 + ($1.dailyWeight ?? 0) } }
        let dominated = keys.map {
            hasWeights
                && !DominanceRule.publishes(
                    DominanceRule.contributions(groups[$0]!, person: \.person, value: { $0.dailyWeight ?? 0 }), k: minimumPersons)
        }
        let weightCells = keys.indices.map { CellSuppression.Cell(publishable: true, sensitive: dominated[$0], size: weighted[$0]) }
        let weightsHidden = hasWeights ? CellSuppression(cells: weightCells, relations: relations).protected(initial: hidden) : []
        for index in keys.indices where hasWeights && !hidden.contains(index) && weightsHidden?.contains(index) != false {
            if dominated[index] { dominatedWeights += 1 } else { complementaryWeights += 1 }
        }
        rows = keys.indices.compactMap { index in
            guard let row = published[keys[index]] else { return nil }
            return Row(
                band: row.band, origin: keys[index].origin, destination: keys[index].destination, trips: row.trips, devices: row.devices,
                persons: row.persons, medianDurationSeconds: row.medianDurationSeconds, medianDistanceMeters: row.medianDistanceMeters,
                modeShares: row.modeShares, suppressedModes: row.suppressedModes,
                tripsWeighted: !hasWeights || weightsHidden?.contains(index) != false ? nil : weighted[index])
        }.sorted {
            (bandIndex[$0.band]!, -$0.trips, $0.origin, $0.destination) < (bandIndex[$1.band]!, -$1.trips, $1.origin, $1.destination)
        }
    }
}
