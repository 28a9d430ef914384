/// A named point that is not part of a recorded trajectory: a GPX waypoint or route point.
public struct Waypoint: Hashable, Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case waypoint
        case routePoint = "route_point"
    }

    public var kind: Kind
    /// 0-based route index for route points; nil for waypoints.
    public var route: Int?
    public var name: String?
    public var fix: PositionFix

    public init(kind: Kind, route: Int?, name: String?, fix: PositionFix) {
        self.kind = kind
        self.route = route
        self.name = name
        self.fix = fix
    }
}
