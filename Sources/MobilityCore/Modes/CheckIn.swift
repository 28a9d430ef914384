/// A passenger's check-in on a train (the TrainSpotter model): which train, from where to
/// where, when, and optionally what they thought of it.
public struct CheckIn: Hashable, Sendable {
    public var device: String
    public var train: String
    public var fromStation: String
    public var toStation: String
    public var checkinTime: Timestamp
    public var scheduledDeparture: Timestamp?
    public var scheduledArrival: Timestamp?
    /// Ratings 1–5; nil when absent or rejected as out of range.
    public var cleanliness: Int?
    public var odoursTemperature: Int?
    public var crowding: Int?
    public var service: Int?
    public var noiseDecibels: Double?
    public var comment: String?
    /// 1-based line in the source CSV.
    public var line: Int

    public init(
        device: String, train: String, fromStation: String, toStation: String,
        checkinTime: Timestamp, line: Int
    ) {
        self.device = device
        self.train = train
        self.fromStation = fromStation
        self.toStation = toStation
        self.checkinTime = checkinTime
        self.line = line
    }
}
