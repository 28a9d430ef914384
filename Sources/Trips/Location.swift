import MobilityCore
/// A recurring place: staypoints clustered together (DBSCAN).
public struct Location: Hashable, Sendable {
    /// The device whose staypoints it holds, or nil when clustered across devices.
    public var device: String?
    /// 1-based number within its device (or the whole run, across devices).
    public var number: Int
    public var latitudeDegrees: Double
    public var longitudeDegrees: Double
    public var staypoints: Int
    public var devices: Int
    public var totalStaySeconds: Double
    /// Home or work for its device, how that was found and its score (`PlacePurposes`); nil for
    /// other places, and for locations shared by several devices.
    public var purpose: PlacePurposes.Label? = nil
}

/// Location clustering's parameters; defaults are trackintel 1.4's `generate_locations`.
public struct LocationParameters: Hashable, Sendable, Codable {
    public enum Scope: String, Hashable, Sendable, Codable, CaseIterable {
        /// Each device's staypoints form its own locations (trackintel `agg_level="user"`).
        case device
        /// One set of locations shared by all devices (`agg_level="dataset"`).
        case dataset
    }

    /// DBSCAN neighbourhood radius, metres.
    public var epsilonMeters = 100.0
    /// Staypoints (itself included) within `epsilonMeters` that make a staypoint a core point.
    public var minimumStaypoints = 1
    public var scope = Scope.device

    public init() {}
}
