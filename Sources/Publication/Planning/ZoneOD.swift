import MobilityCore
import Trips

/// Origin–destination between a planner's zones (`ZoneLayer`), over the whole day and per time
/// band (`TimeBands`): one row per (band, origin zone, destination zone) that at least k
/// distinct persons made, intrazonal pairs included.
///
/// A trip counts from the zone of its origin staypoint to the zone of its destination one, in
/// the band of its departure on its person's local clock. A trip with an end in no zone is
/// counted as `outsideTrips`, one without both staypoints as `unplacedTrips`; neither is in a
/// row. A pair's band rows add up to its `all_day` row, so a band row under k could be read by
/// subtraction when it is the only one left out: the audit of `CellSuppression` leaves out a
/// second, the smallest (Hundepool et al., *Statistical Disclosure Control*, 2012, §5.2–5.3).
/// No other total of the table is published.
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
        /// Share of the row's trips by main mode, keyed by mode name.
        public var modeShares: [String: Double]
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
    /// Published rows whose weighted trips are left out: dominated, and beside them.
    public private(set) var dominatedWeights = 0, complementaryWeights = 0

    /// Rows by band (`all_day`, then the bands in order), then most trips first, then zone order.
    public init(_ trips: [Trip], layer: ZoneLayer, calendars: LocalCalendars, bands: TimeBands, minimumPersons: Int) {
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
            let band = bandIndex[bands.name(startSeconds: trip.startSeconds, calendar: calendars.person(trip.person))]!
            groups[Key(band: 0, origin: origin, destination: destination), default: []].append(trip)
            groups[Key(band: band, origin: origin, destination: destination), default: []].append(trip)
        }
        // One canonical order for the audit, so every run leaves out the same rows.
        let keys = groups.keys.sorted { ($0.origin, $0.destination, $0.band) < ($1.origin, $1.destination, $1.band) }
        let persons = keys.map { Set(groups[$0]!.map(\.person)).count }
        let cells = keys.indices.map {
            CellSuppression.Cell(publishable: true, sensitive: persons[$0] < minimumPersons, size: Double(groups[keys[$0]]!.count))
        }
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
        let hidden = CellSuppression(cells: cells, relations: relations).suppressed()
        // The weighted trips, a magnitude: the dominance rule, then the same relations' audit.
        let hasWeights = trips.contains { $0.dailyWeight != nil }
        let weighted = keys.map { groups[$0]!.reduce(0) { $0 + ($1.dailyWeight ?? 0) } }
        let dominated = keys.map {
            hasWeights
                && !DominanceRule.publishes(
                    DominanceRule.contributions(groups[$0]!, person: \.person, value: { $0.dailyWeight ?? 0 }), k: minimumPersons)
        }
        let weightCells = keys.indices.map { CellSuppression.Cell(publishable: true, sensitive: dominated[$0], size: weighted[$0]) }
        let weightsHidden = hasWeights ? CellSuppression(cells: weightCells, relations: relations).protected(initial: hidden) : []
        for index in hidden {
            let trips = groups[keys[index]]!.count
            if keys[index].band == 0, cells[index].sensitive {
                suppressedPairs += 1
                suppressedTrips += trips
            } else if keys[index].band == 0 {
                complementaryPairs += 1
                complementaryTrips += trips
            } else if cells[index].sensitive {
                suppressedBandRows += 1
            } else {
                complementaryRows += 1
            }
        }
        for index in keys.indices where hasWeights && !hidden.contains(index) && weightsHidden?.contains(index) != false {
            if dominated[index] { dominatedWeights += 1 } else { complementaryWeights += 1 }
        }
        rows = keys.indices.filter { !hidden.contains($0) }.map { index in
            let (key, members) = (keys[index], groups[keys[index]]!)
            var shares: [String: Double] = [:]
            for member in members { shares[member.mainMode, default: 0] += 1 }
            return Row(
                band: bandNames[key.band], origin: key.origin, destination: key.destination, trips: members.count,
                devices: Set(members.map(\.device)).count, persons: persons[index],
                medianDurationSeconds: Quantile.median(members.map(\.durationSeconds))!,
                medianDistanceMeters: Quantile.median(members.map(\.distanceMeters))!,
                modeShares: shares.mapValues { $0 / Double(members.count) },
                tripsWeighted: !hasWeights || weightsHidden?.contains(index) != false ? nil : weighted[index])
        }.sorted {
            (bandIndex[$0.band]!, -$0.trips, $0.origin, $0.destination) < (bandIndex[$1.band]!, -$1.trips, $1.origin, $1.destination)
        }
    }
}
