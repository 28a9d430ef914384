import MobilityCore

/// A stay of one device inside one geofence, from entry to exit.
public struct GeofenceDwell: Hashable, Sendable {
    /// Why a dwell ended.
    public enum Closure: String, Sendable, Codable {
        /// The device was outside the buffered boundary for `exitSeconds`.
        case exit
        /// The data stopped for longer than `maxGapSeconds`.
        case gap
        /// The track ended with the device inside (or before an exit was confirmed).
        case trackEnd = "track_end"
    }

    public var device: String
    public var geofenceID: String
    /// The geofence's kind (`home`, `station` …).
    public var geofenceKind: String
    /// Time of the first fix of the run of inside fixes that confirmed the entry.
    public var entrySeconds: Double
    /// Time of the last fix inside before the exit (or the gap, or the track's end).
    public var exitSeconds: Double
    /// Fixes inside the boundary between entry and exit.
    public var fixesUsed: Int
    /// Track indices of the first and last fix inside.
    public var firstFix: Int
    public var lastFix: Int
    public var closure: Closure
    /// The longest time without data inside the dwell, seconds.
    public var longestGapSeconds: Double
    /// Mean position of the fixes from entry to exit.
    public var center = GeoPoint(longitudeDegrees: .nan, latitudeDegrees: .nan)

    public var durationSeconds: Double { exitSeconds - entrySeconds }
}

/// Geofence dwell detection's parameters (entry and exit hysteresis, minimum dwell, gap tolerance).
///
/// Defaults follow the reference apps: a stay is confirmed after about 5 consecutive fixes
/// inside (the Compiègne app's 100 m circles), or a minute inside with sparser fixes; leaving
/// needs 2 minutes outside the boundary widened by each fix's accuracy, so one wild fix never
/// ends a dwell.
public struct DwellParameters: Hashable, Sendable, Codable {
    /// Consecutive fixes inside that confirm an entry.
    public var enterFixes = 5
    /// Time inside that confirms an entry with fewer fixes, seconds.
    public var enterSeconds = 60.0
    /// Time outside the buffered boundary that confirms an exit, seconds.
    public var exitSeconds = 120.0
    /// Dwells shorter than this are not kept, seconds.
    public var minimumDwellSeconds = 300.0
    /// A time without fixes up to this long does not end a dwell, seconds.
    public var maxGapSeconds = 1800.0
    /// The exit boundary is widened by each fix's accuracy, at most by this, metres.
    public var maxAccuracyBufferMeters = 100.0

    public init() {}
}
