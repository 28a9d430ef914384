import Foundation
import MobilityCore

/// One timed GPS fix as the trip stages see it: time, position and the receiver's accuracy.
///
/// A slimmer value than `PositionFix` (32 bytes): the stages walk millions of them.
public struct TrackPoint: Hashable, Sendable {
    public var timeSeconds: Double
    public var latitudeDegrees: Double
    public var longitudeDegrees: Double
    /// Horizontal accuracy in metres; NaN when the input did not say.
    public var accuracyMeters: Double

    public init(timeSeconds: Double, latitudeDegrees: Double, longitudeDegrees: Double, accuracyMeters: Double = .nan) {
        self.timeSeconds = timeSeconds
        self.latitudeDegrees = latitudeDegrees
        self.longitudeDegrees = longitudeDegrees
        self.accuracyMeters = accuracyMeters
    }

    public static func == (lhs: TrackPoint, rhs: TrackPoint) -> Bool {
        lhs.timeSeconds == rhs.timeSeconds && lhs.latitudeDegrees == rhs.latitudeDegrees
            && lhs.longitudeDegrees == rhs.longitudeDegrees
            && (lhs.accuracyMeters == rhs.accuracyMeters || (lhs.accuracyMeters.isNaN && rhs.accuracyMeters.isNaN))
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(timeSeconds)
        hasher.combine(latitudeDegrees)
        hasher.combine(longitudeDegrees)
    }

    /// Orders by time, then position, so any input order gives one sequence.
    static func precedes(_ a: TrackPoint, _ b: TrackPoint) -> Bool {
        if a.timeSeconds != b.timeSeconds { return a.timeSeconds < b.timeSeconds }
        if a.latitudeDegrees != b.latitudeDegrees { return a.latitudeDegrees < b.latitudeDegrees }
        return a.longitudeDegrees < b.longitudeDegrees
    }

    public static func distanceMeters(_ a: TrackPoint, _ b: TrackPoint) -> Double {
        Geodesy.haversineMeters(latitude1: a.latitudeDegrees, longitude1: a.longitudeDegrees,
                                latitude2: b.latitudeDegrees, longitude2: b.longitudeDegrees)
    }
}

/// All timed fixes of one device, sorted by time with exact duplicates removed (as
/// trackintel's `exclude_duplicate_pfs`), whatever order they were given in.
public struct DeviceTrack: Sendable {
    public let device: String
    public let points: [TrackPoint]

    public init(device: String, points: [TrackPoint]) {
        self.device = device
        var sorted = points.filter { $0.timeSeconds.isFinite }
        if !sorted.isSorted(by: TrackPoint.precedes) { sorted.sort(by: TrackPoint.precedes) }
        var unique: [TrackPoint] = []
        unique.reserveCapacity(sorted.count)
        for point in sorted where unique.last != point { unique.append(point) }
        self.points = unique
    }

    /// Points already sorted and free of duplicates (a subset of another track's).
    init(device: String, sortedUniquePoints: [TrackPoint]) {
        self.device = device
        points = sortedUniquePoints
    }

    /// Seconds between fix `index` and the fix before it (0 for the first).
    func secondsBefore(_ index: Int) -> Double {
        index == 0 ? 0 : points[index].timeSeconds - points[index - 1].timeSeconds
    }
}

extension Array {
    func isSorted(by areInIncreasingOrder: (Element, Element) -> Bool) -> Bool {
        var index = 1
        while index < count {
            if areInIncreasingOrder(self[index], self[index - 1]) { return false }
            index += 1
        }
        return true
    }
}

extension DeviceTrack {
    /// Mean latitude and longitude of a range of fixes.
    public func meanPosition(_ range: ClosedRange<Int>) -> GeoPoint {
        var latitude = 0.0, longitude = 0.0
        for index in range {
            latitude += points[index].latitudeDegrees
            longitude += points[index].longitudeDegrees
        }
        let count = Double(range.count)
        return GeoPoint(longitudeDegrees: longitude / count, latitudeDegrees: latitude / count)
    }

    /// A GeoJSON LineString geometry through a range of fixes, coordinates to 1e-6 degree
    /// (about 0.1 m).
    public func lineStringGeoJSON(_ range: ClosedRange<Int>) -> String {
        var text = #"{"type":"LineString","coordinates":["#
        for index in range {
            if index != range.lowerBound { text += "," }
            text += "[" + Self.coordinate(points[index].longitudeDegrees) + "," + Self.coordinate(points[index].latitudeDegrees) + "]"
        }
        return text + "]}"
    }

    static func coordinate(_ degrees: Double) -> String {
        FixedPoint.text(degrees, digits: 6)
    }
}
