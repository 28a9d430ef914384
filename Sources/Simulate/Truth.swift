import MobilityCore

/// What the simulated people really did: the answers the pipeline should recover.
public struct Truth: Sendable {
    public struct Stay: Sendable {
        public var device: String
        public var place: Place
        public var startSeconds: Double
        public var endSeconds: Double
        public var durationSeconds: Double { endSeconds - startSeconds }
    }

    public struct Leg: Sendable {
        public var device: String
        public var mode: Mode
        public var startSeconds: Double
        public var endSeconds: Double
        public var distanceMeters: Double
        /// Position at each whole second from the start (the last one at the end).
        public var path: [LocalPoint]
    }

    public struct Trip: Sendable {
        public var device: String
        public var origin: Place
        public var destination: Place
        public var startSeconds: Double
        public var endSeconds: Double
        public var legModes: [Mode]
        /// The mode covering the longest distance (the pipeline's definition).
        public var mainMode: Mode
    }

    public struct Ride: Sendable {
        public var device: String
        public var train: String
        public var from: Place
        public var to: Place
        public var checkinSeconds: Double
        public var scheduledDepartureSeconds: Double
        public var scheduledArrivalSeconds: Double
        public var departureSeconds: Double
        public var arrivalSeconds: Double
    }

    public var stays: [Stay] = []
    public var legs: [Leg] = []
    public var trips: [Trip] = []
    public var rides: [Ride] = []

    /// Stays long enough to be activities (and to end a trip), seconds: trackintel's
    /// `generate_trips` activity threshold, as in `TripParameters`.
    public static let activityMinimumSeconds = 900.0
}
