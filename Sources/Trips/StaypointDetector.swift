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
/// - with `ridesAcrossGap` (a transit feed's metro rides underground), a stay that a gap the
///   device crossed in a vehicle ends is measured to its last fix before that gap, and the
///   gap belongs to the next leg: minutes without a fix between two stations are a ride, not
///   a stay at the first (trackintel counts them as a stay; without the predicate, so do we);
/// - the position is the mean of the stay's fixes. trackintel averages its *distinct*
///   positions (a coordinate repeated by a logger counts once) with a circular mean of
///   longitudes; we weight each fix equally (a place is where the device spent its fixes)
///   and unwrap longitudes around the first fix, which avoids a hash set and two sines per
///   fix. The two agree to well under a metre on the real tracks (within GPS noise).
///
/// Distances are haversine, as trackintel's, but computed only where they can decide: the loop
/// first compares a flat-earth distance around the stay's anchor (a subtraction and two
/// multiplications; one cosine per anchor), and only a fix whose flat distance lies within
/// that approximation's error bound of `distanceMeters` gets the exact haversine test. The
/// decisions are the haversine's, and almost no trigonometry runs in the loop (written by
/// hand for that reason: it is the stage's hot path, 20–30× trackintel's loop).
///
/// - Complexity: O(n) in the number of fixes, one pass, no extra memory.
public struct StaypointDetector: Sendable {
    public var parameters: StaypointParameters
    /// Whether the time between two consecutive fixes was spent riding (both ends at rail
    /// stations, crossed faster than anyone walks: `LegFusion.ridesUnderground`). Default nil:
    /// trackintel's conventions throughout.
    public var ridesAcrossGap: (@Sendable (TrackPoint, TrackPoint) -> Bool)?

    public init(
        parameters: StaypointParameters = StaypointParameters(), ridesAcrossGap: (@Sendable (TrackPoint, TrackPoint) -> Bool)? = nil
    ) {
        self.parameters = parameters
        self.ridesAcrossGap = ridesAcrossGap
    }

    public func detect(_ track: DeviceTrack) -> [Staypoint] {
        let points = track.points
        guard points.count > 1 else { return [] }
        var (stays, start, _) = closedStays(track, from: 0)
        let last = points.count - 1
        if parameters.includeLast, points[last].timeSeconds - points[start].timeSeconds >= parameters.timeSeconds {
            stays.append(staypoint(track, from: start, to: points.count, end: points[last].timeSeconds, isOpen: true))
        }
        return stays
    }

    /// The stays of `track` from fix `anchor` on that a later fix of it ends, the anchor the scan
    /// stopped at and the first fix it did not read. The scan's only state is its anchor, so from
    /// any fix it anchored at (the first, a stay's first fix, the end of an earlier call's scan)
    /// the stays are those `detect` finds there on the whole track, however much of it comes
    /// later; and the fixes an earlier call read after that anchor changed nothing, so the scan
    /// goes on from `next`. A track read in pieces is scanned on from where the last piece left
    /// off (`TrackPieceAnalysis`), each fix once.
    public func closedStays(_ track: DeviceTrack, from anchor: Int, next: Int = 0) -> (stays: [Staypoint], anchor: Int, next: Int) {
        let points = track.points
        guard anchor < points.count else { return ([], anchor, max(next, anchor + 1)) }
        var stays: [Staypoint] = []
        var start = anchor
        var test = DistanceTest(points[start], thresholdMeters: parameters.distanceMeters)
        var current = max(start + 1, next)
        while current < points.count {
            defer { current += 1 }
            if points[current].timeSeconds - points[current - 1].timeSeconds > parameters.gapSeconds {
                start = current
                test = DistanceTest(points[start], thresholdMeters: parameters.distanceMeters)
                continue
            }
            guard test.isAtOrBeyond(points[current]) else { continue }
            let ride = ridesAcrossGap?(points[current - 1], points[current]) ?? false
            let end = ride ? current - 1 : current // after a ride, the next leg starts where it began
            if points[end].timeSeconds - points[start].timeSeconds >= parameters.timeSeconds {
                stays.append(staypoint(track, from: start, to: end, end: points[end].timeSeconds, isOpen: false))
            }
            start = current
            test = DistanceTest(points[start], thresholdMeters: parameters.distanceMeters)
        }
        return (stays, start, current)
    }

    private func staypoint(_ track: DeviceTrack, from start: Int, to end: Int, end endSeconds: Double, isOpen: Bool) -> Staypoint {
        let centre = Self.centroid(track.points[start..<end])
        return Staypoint(
            device: track.device, firstFix: start, endFix: end, startSeconds: track.points[start].timeSeconds,
            endSeconds: endSeconds, latitudeDegrees: centre.latitudeDegrees,
            longitudeDegrees: centre.longitudeDegrees, isOpen: isOpen, location: nil)
    }

    /// Mean latitude and longitude of the fixes, longitudes taken relative to the first so a
    /// stay on the antimeridian is not averaged to the other side of the Earth.
    static func centroid(_ points: TrackPoints) -> GeoPoint {
        guard let first = points.first else { return GeoPoint(longitudeDegrees: .nan, latitudeDegrees: .nan) }
        var latitudeSum = 0.0, longitudeOffsetSum = 0.0
        for point in points {
            latitudeSum += point.latitudeDegrees
            var offset = point.longitudeDegrees - first.longitudeDegrees
            if abs(offset) > 180 { offset -= offset > 0 ? 360 : -360 }
            longitudeOffsetSum += offset
        }
        let count = Double(points.count)
        var longitude = first.longitudeDegrees + longitudeOffsetSum / count
        if abs(longitude) > 180 { longitude -= longitude > 0 ? 360 : -360 }
        return GeoPoint(longitudeDegrees: longitude, latitudeDegrees: latitudeSum / count)
    }
}

/// "Is this fix `thresholdMeters` or more from the anchor (haversine)?", answered by a flat
/// approximation when it is clearly decided and by the haversine formula otherwise.
///
/// The flat distance uses the anchor's latitude for the longitude scale; for a fix near the
/// threshold θ (as an angle) its relative error is below θ·(1 + tan|φ|) plus terms in θ², so a
/// band of twice that (and at least 1e-6) around θ² on squared distances sends every close
/// call to the exact formula. Near the poles (|φ| > 80°) every test is exact.
struct DistanceTest {
    let latitude: Double, longitude: Double
    let longitudeScale: Double
    let surelyInside: Double, surelyBeyond: Double
    let thresholdMeters: Double
    let anchor: TrackPoint

    init(_ anchor: TrackPoint, thresholdMeters: Double) {
        self.anchor = anchor
        self.thresholdMeters = thresholdMeters
        latitude = anchor.latitudeDegrees
        longitude = anchor.longitudeDegrees
        let radians = Double.pi / 180
        longitudeScale = cos(latitude * radians)
        let theta = thresholdMeters / Geodesy.earthRadiusMeters / radians
        let band =
            abs(latitude) > 80
            ? Double.infinity : max(1e-6, 4 * (thresholdMeters / Geodesy.earthRadiusMeters) * (1 + abs(tan(latitude * radians))))
        surelyInside = theta * theta * max(0, 1 - band)
        surelyBeyond = band.isInfinite ? 0 : theta * theta * (1 + band)
    }

    @inline(__always)
    func isAtOrBeyond(_ point: TrackPoint) -> Bool {
        let dy = point.latitudeDegrees - latitude
        var dLongitude = point.longitudeDegrees - longitude
        if abs(dLongitude) > 180 { dLongitude -= dLongitude > 0 ? 360 : -360 }
        let dx = dLongitude * longitudeScale
        let flat = dx * dx + dy * dy
        if flat < surelyInside { return false }
        if flat > surelyBeyond, surelyBeyond > 0 { return true }
        return TrackPoint.distanceMeters(anchor, point) >= thresholdMeters
    }
}
