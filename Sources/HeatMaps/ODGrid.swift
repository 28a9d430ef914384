import MobilityCore
import Trips

/// Origin–destination on the heat maps' global grid (`HeatGrid`), for data without geofences:
/// a trip counts from the cell of its origin staypoint to the cell of its destination one, at
/// a coarser cell than the heat maps' (1 km by default). The heat maps' k rule applies: a pair
/// of cells is published only when at least k distinct persons made trips between them; the
/// others are suppressed and counted, never shown. A trip without both staypoints is counted
/// apart (`unplaced`).
public struct ODGrid: Sendable {
    public struct Trip: Sendable {
        public var device: String, person: String
        public var origin: (latitude: Double, longitude: Double)?
        public var destination: (latitude: Double, longitude: Double)?
        public var durationSeconds: Double, distanceMeters: Double
        /// The trip's main mode's name ("unknown" when none).
        public var mainMode: String

        public init(device: String, person: String, origin: (latitude: Double, longitude: Double)?,
                    destination: (latitude: Double, longitude: Double)?, durationSeconds: Double, distanceMeters: Double, mainMode: String) {
            (self.device, self.person, self.origin, self.destination) = (device, person, origin, destination)
            (self.durationSeconds, self.distanceMeters, self.mainMode) = (durationSeconds, distanceMeters, mainMode)
        }
    }

    public struct Row: Sendable {
        public var origin: HeatGrid.Cell, destination: HeatGrid.Cell
        public var trips: Int, devices: Int, persons: Int
        public var medianDurationSeconds: Double, medianDistanceMeters: Double
        /// Share of the pair's trips by main mode, keyed by mode name.
        public var modeShares: [String: Double]
    }

    public let grid: HeatGrid
    public let minimumPersons: Int
    /// Published pairs, most trips first (then by cell).
    public private(set) var rows: [Row] = []
    public private(set) var suppressedPairs = 0, suppressedTrips = 0, unplacedTrips = 0

    public init(_ trips: [Trip], cellMeters: Double, minimumPersons: Int) {
        grid = HeatGrid(cellMeters: cellMeters)
        self.minimumPersons = minimumPersons
        struct Key: Hashable { var origin: HeatGrid.Cell, destination: HeatGrid.Cell }
        var groups: [Key: [Trip]] = [:]
        for trip in trips {
            guard let o = trip.origin, let d = trip.destination else { unplacedTrips += 1; continue }
            let key = Key(origin: grid.cell(latitudeDegrees: o.latitude, longitudeDegrees: o.longitude),
                          destination: grid.cell(latitudeDegrees: d.latitude, longitudeDegrees: d.longitude))
            groups[key, default: []].append(trip)
        }
        for (key, members) in groups {
            let persons = Set(members.map(\.person)).count
            guard persons >= minimumPersons else { suppressedPairs += 1; suppressedTrips += members.count; continue }
            var shares: [String: Double] = [:]
            for member in members { shares[member.mainMode, default: 0] += 1 / Double(members.count) }
            rows.append(Row(origin: key.origin, destination: key.destination, trips: members.count, devices: Set(members.map(\.device)).count,
                            persons: persons, medianDurationSeconds: Quantile.median(members.map(\.durationSeconds))!,
                            medianDistanceMeters: Quantile.median(members.map(\.distanceMeters))!, modeShares: shares))
        }
        rows.sort { ($0.trips, $1.origin, $1.destination) > ($1.trips, $0.origin, $0.destination) }
    }
}
