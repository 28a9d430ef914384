import Foundation
import MobilityCore

/// Sliding staypoint detection of Li et al. (2008), "Mining user similarity based on location
/// history", ACM SIGSPATIAL, with trackintel 1.4's conventions so results can be compared:
///
/// - a stay is anchored at its first fix and grows while fixes stay within `distanceMeters`
///   of that anchor;
/// - the first fix at `distanceMeters` or more ends it; it is a staypoint when that fix comes
///   `timeSeconds` or more after the anchor, and its end time is that fix's time;
/// - a time between consecutive fixes longer than `gapSeconds` drops the stay in progress
///   and anchors a new one after the gap (a gap never becomes a stay);
/// - the position is the mean latitude and circular-mean longitude of the stay's distinct
///   fix positions (trackintel's `angle_centroid_multipoints`).
///
/// Distances are great-circle: each fix becomes a unit vector once (four trigonometric calls),
/// and the loop compares squared chord lengths against the chord of `distanceMeters`, which
/// orders exactly as the haversine distance does; no trigonometry runs in the loop.
///
/// - Complexity: O(n) in the number of fixes, one pass, O(n) extra memory for the vectors.
public struct StaypointDetector: Sendable {
    public var parameters: StaypointParameters

    public init(parameters: StaypointParameters = StaypointParameters()) {
        self.parameters = parameters
    }

    public func detect(_ track: DeviceTrack) -> [Staypoint] {
        let points = track.points
        guard points.count > 1 else { return [] }
        let vectors = UnitVectors(points)
        let halfAngle = parameters.distanceMeters / (2 * Geodesy.earthRadiusMeters)
        let chordSquaredThreshold = pow(2 * sin(halfAngle), 2)
        var stays: [Staypoint] = []
        var start = 0
        var current = 1
        while current < points.count {
            defer { current += 1 }
            if points[current].timeSeconds - points[current - 1].timeSeconds > parameters.gapSeconds {
                start = current
                continue
            }
            guard vectors.chordSquared(start, current) >= chordSquaredThreshold else { continue }
            if points[current].timeSeconds - points[start].timeSeconds >= parameters.timeSeconds {
                stays.append(staypoint(track, from: start, to: current, end: points[current].timeSeconds, isOpen: false))
            }
            start = current
        }
        let last = points.count - 1
        if parameters.includeLast, points[last].timeSeconds - points[start].timeSeconds >= parameters.timeSeconds {
            stays.append(staypoint(track, from: start, to: points.count, end: points[last].timeSeconds, isOpen: true))
        }
        return stays
    }

    private func staypoint(_ track: DeviceTrack, from start: Int, to end: Int, end endSeconds: Double, isOpen: Bool) -> Staypoint {
        let centre = Self.centroid(track.points[start..<end])
        return Staypoint(device: track.device, firstFix: start, endFix: end, startSeconds: track.points[start].timeSeconds,
                         endSeconds: endSeconds, latitudeDegrees: centre.latitudeDegrees,
                         longitudeDegrees: centre.longitudeDegrees, isOpen: isOpen, location: nil)
    }

    /// Mean latitude and circular-mean longitude of the distinct positions.
    static func centroid(_ points: ArraySlice<TrackPoint>) -> GeoPoint {
        var seen = Set<SIMD2<Double>>()
        var latitudeSum = 0.0, sineSum = 0.0, cosineSum = 0.0
        for point in points where seen.insert(SIMD2(point.latitudeDegrees, point.longitudeDegrees)).inserted {
            latitudeSum += point.latitudeDegrees
            let longitude = point.longitudeDegrees * .pi / 180
            sineSum += sin(longitude)
            cosineSum += cos(longitude)
        }
        return GeoPoint(longitudeDegrees: atan2(sineSum, cosineSum) * 180 / .pi,
                        latitudeDegrees: latitudeSum / Double(seen.count))
    }
}

/// Fixes as points on the unit sphere, in three flat arrays.
struct UnitVectors {
    private var x: [Double], y: [Double], z: [Double]

    init(_ points: [TrackPoint]) {
        let radians = Double.pi / 180
        x = [Double](repeating: 0, count: points.count)
        y = x
        z = x
        for (index, point) in points.enumerated() {
            let latitude = point.latitudeDegrees * radians, longitude = point.longitudeDegrees * radians
            let cosLatitude = cos(latitude)
            x[index] = cosLatitude * cos(longitude)
            y[index] = cosLatitude * sin(longitude)
            z[index] = sin(latitude)
        }
    }

    /// Squared straight-line distance between fixes `a` and `b` through the unit sphere.
    @inline(__always)
    func chordSquared(_ a: Int, _ b: Int) -> Double {
        let dx = x[a] - x[b], dy = y[a] - y[b], dz = z[a] - z[b]
        return dx * dx + dy * dy + dz * dz
    }
}
