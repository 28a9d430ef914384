import MobilityCore
import Trips

/// Origin–destination table over geofence zones: one row per (time band, origin, destination)
/// of geofence ids (nil where a trip's end lies in no geofence) that at least k distinct persons
/// made, `all_day` and each band of the departure; rows fewer made are suppressed and counted,
/// never published.
public struct ODMatrix: Sendable {
    public struct Row: Sendable, Equatable {
        /// `all_day` or a band's name.
        public var band: String
        public var origin: String?
        public var destination: String?
        public var trips: Int
        public var devices: Int
        public var persons: Int
        public var medianDurationSeconds: Double
        public var medianDistanceMeters: Double
        /// Share of the row's trips by main mode, keyed by mode name.
        public var modeShares: [String: Double]
    }

    public var rows: [Row]
    /// The k every row met: distinct persons per row.
    public var minimumPersons: Int
    /// Whole-day pairs, and their trips, made by fewer than `minimumPersons` persons: in no row.
    public var suppressedPairs = 0, suppressedTrips = 0
    /// Band rows under k, and band rows of k or more left out so the first cannot be subtracted.
    public var suppressedBandRows = 0, complementaryRows = 0

    public init(
        _ devices: [DeviceTrips], persons: [String: String] = [:], calendars: LocalCalendars = LocalCalendars(),
        bands: TimeBands = TimeBands(), minimumPersons: Int
    ) {
        self.init(
            groups: ODGroup.groups(devices, persons: persons, calendars: calendars, bands: bands), minimumPersons: minimumPersons,
            bands: bands)
    }

    /// Medians (type 7) of each published row's durations and distances, the share of each main
    /// mode (trips of the mode / trips); rows by band (`all_day`, then `bands`' order), then
    /// trips, then origin and destination. A pair's band rows add up to its `all_day` row, so a
    /// band row under k that would be the only one left out of its pair takes a second with it
    /// (`CellSuppression`, as `ZoneOD` does).
    public init(groups: [ODGroup], minimumPersons: Int, bands: TimeBands = TimeBands()) {
        self.minimumPersons = minimumPersons
        let order = Dictionary(uniqueKeysWithValues: ([TimeBands.allDay] + bands.names).enumerated().map { ($1, $0) })
        func rank(_ band: String) -> Int { order[band] ?? order.count }
        // One canonical order for the audit, so a run and Spark leave out the same rows.
        let sorted = groups.sorted {
            ($0.origin ?? "", $0.destination ?? "", rank($0.band), $0.band) < (
                $1.origin ?? "", $1.destination ?? "", rank($1.band), $1.band
            )
        }
        let cells = sorted.map {
            CellSuppression.Cell(publishable: true, sensitive: $0.persons < minimumPersons, size: Double($0.trips))
        }
        var relations: [[(cell: Int, sign: Double)]] = []
        var start = 0
        for index in sorted.indices
        where index == sorted.count - 1
            || (sorted[index + 1].origin, sorted[index + 1].destination) != (sorted[index].origin, sorted[index].destination)
        {
            // Groups of a version before bands (a Spark part's reductions) have no band rows, and no relation.
            if index > start {
                relations.append((start...index).map { (cell: $0, sign: sorted[$0].band == TimeBands.allDay ? -1.0 : 1.0) })
            }
            start = index + 1
        }
        let hidden = CellSuppression(cells: cells, relations: relations).suppressed()
        for index in hidden {
            if sorted[index].band == TimeBands.allDay {
                suppressedPairs += 1
                suppressedTrips += sorted[index].trips
            } else if cells[index].sensitive {
                suppressedBandRows += 1
            } else {
                complementaryRows += 1
            }
        }
        rows = sorted.indices.filter { !hidden.contains($0) }.map { index in
            let group = sorted[index]
            return Row(
                band: group.band, origin: group.origin, destination: group.destination, trips: group.trips, devices: group.devices,
                persons: group.persons, medianDurationSeconds: Quantile.median(group.durationsSeconds)!,
                medianDistanceMeters: Quantile.median(group.distancesMeters)!,
                modeShares: group.mainModes.mapValues { Double($0) / Double(group.trips) })
        }.sorted {
            (rank($0.band), -$0.trips, $0.origin ?? "", $0.destination ?? "") < (
                rank($1.band), -$1.trips, $1.origin ?? "", $1.destination ?? ""
            )
        }
    }
}
