/// What a GPX file held, counted as read (before cleaning).
public struct GPXSummary: Hashable, Sendable {
    public var version: String?
    public var creator: String?
    /// `metadata/author/name` (GPX 1.1) or `author` (GPX 1.0), used for device identity.
    public var authorName: String?
    public var tracks = 0
    public var segments = 0
    public var trackPoints = 0
    public var routes = 0
    public var routePoints = 0
    public var waypoints = 0
    /// Track points without a time (kept; they cannot be ordered or cleaned by time).
    public var pointsWithoutTime = 0

    public init() {}

    /// Adds the counts of a later part of the same document (`GPXBlocks`); its author's name,
    /// when it gives one, replaces this one's, as reading on would.
    mutating func add(_ later: GPXSummary) {
        tracks += later.tracks
        segments += later.segments
        trackPoints += later.trackPoints
        routes += later.routes
        routePoints += later.routePoints
        waypoints += later.waypoints
        pointsWithoutTime += later.pointsWithoutTime
        if let name = later.authorName { authorName = name }
    }
}
