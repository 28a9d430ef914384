import MobilityCore
/// Run-wide 1-based ids for the per-device results, in device order then time order: the
/// store and every CSV and GeoJSON file use the same numbers, so files join on them.
public struct TripIdentifiers: Sendable {
    private var staypointOffsets: [Int] = []
    private var dwellOffsets: [Int] = []
    private var triplegOffsets: [Int] = []
    private var tripOffsets: [Int] = []

    public init(_ devices: [DeviceTrips]) {
        var stays = 0, dwells = 0, legs = 0, trips = 0
        for device in devices {
            staypointOffsets.append(stays)
            dwellOffsets.append(dwells)
            triplegOffsets.append(legs)
            tripOffsets.append(trips)
            stays += device.staypoints.count
            dwells += device.dwells.count
            legs += device.triplegs.count
            trips += device.trips.count
        }
    }

    public func staypoint(_ device: Int, _ index: Int) -> Int { staypointOffsets[device] + index + 1 }
    public func dwell(_ device: Int, _ index: Int) -> Int { dwellOffsets[device] + index + 1 }
    public func tripleg(_ device: Int, _ index: Int) -> Int { triplegOffsets[device] + index + 1 }
    public func trip(_ device: Int, _ index: Int) -> Int { tripOffsets[device] + index + 1 }
    /// Locations are numbered by their index in `TripAnalysis.Result.locations`.
    public static func location(_ index: Int) -> Int { index + 1 }
}
