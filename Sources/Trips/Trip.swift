import MobilityCore

/// A journey between two activities: its triplegs and the short stops between them.
public struct Trip: Hashable, Sendable {
    public var device: String
    public var startSeconds: Double
    public var endSeconds: Double
    public var distanceMeters: Double
    /// The mode of the longest distance among its legs (ties: longest time); nil when no leg
    /// has a mode.
    public var mainMode: Mode?
    /// Indices of its legs in the device's triplegs, in time order.
    public var legs: [Int]
    /// Indices of the activity staypoints it leaves and reaches; nil at a track boundary or gap.
    public var originStaypoint: Int?
    public var destinationStaypoint: Int?
    /// The geofences dwelt in at the origin and destination, when the staypoint lies in one.
    public var originGeofence: String?
    public var destinationGeofence: String?

    public var durationSeconds: Double { endSeconds - startSeconds }
}
