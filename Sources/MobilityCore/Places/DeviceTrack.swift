import Foundation

/// All timed fixes of one device, sorted by time with exact duplicates removed (as
/// trackintel's `exclude_duplicate_pfs`), whatever order they were given in.
public struct DeviceTrack: Sendable {
    public let device: String
    /// In memory, or read from a file (a movement too long to hold, `TrackPointFile`).
    public let points: TrackPoints

    /// In place when the caller hands `points` over (a store's read does): a filtered, a
    /// sorted and a de-duplicated copy of a device's year of fixes were 1 GB each.
    public init(device: String, points: consuming [TrackPoint]) {
        self.device = device
        var points = points
        points.removeAll { !$0.timeSeconds.isFinite }
        if !points.isSorted(by: TrackPoint.precedes) { points.sort(by: TrackPoint.precedes) }
        var kept = 0
        for index in points.indices where kept == 0 || points[kept - 1] != points[index] {
            points[kept] = points[index]
            kept += 1
        }
        points.removeLast(points.count - kept)
        self.points = TrackPoints(points)
    }

    /// Points already sorted and free of duplicates (a subset of another track's).
    package init(device: String, sortedUniquePoints: [TrackPoint]) {
        self.device = device
        points = TrackPoints(sortedUniquePoints)
    }

    /// The same, in memory or in a file, indexed from 0.
    package init(device: String, sortedUniquePoints: TrackPoints) {
        self.device = device
        points = sortedUniquePoints.rebased()
    }

    /// Seconds between fix `index` and the fix before it (0 for the first).
    package func secondsBefore(_ index: Int) -> Double {
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
        var text = ""
        // Reserved once for the longest text a point can take (`,[-180.000000,-90.000000]`):
        // grown by doubling, a year-long leg's text would hold its old and new buffers at once.
        text.reserveCapacity(range.count * 25 + 64)
        writeLineStringGeoJSON(range, to: &text)
        return text
    }

    /// The same written to `output` point by point: a leg as long as a year's track is never
    /// one string (`TripGeoJSON` streams it to its file).
    public func writeLineStringGeoJSON(_ range: ClosedRange<Int>, to output: inout some TextOutputStream) {
        output.write(#"{"type":"LineString","coordinates":["#)
        // The coordinates go out in blocks of bytes (`FixedPoint.append`, the same text as
        // `FixedPoint.text`): a String per coordinate cost about ten allocations a point.
        var block: [UInt8] = []
        block.reserveCapacity(min(range.count * 25, Self.lineBlockBytes) + 64)
        for index in range {
            if index != range.lowerBound { block.append(UInt8(ascii: ",")) }
            block.append(UInt8(ascii: "["))
            FixedPoint.append(points[index].longitudeDegrees, digits: Self.coordinateDigits, to: &block)
            block.append(UInt8(ascii: ","))
            FixedPoint.append(points[index].latitudeDegrees, digits: Self.coordinateDigits, to: &block)
            block.append(UInt8(ascii: "]"))
            if block.count >= Self.lineBlockBytes {
                output.write(String(decoding: block, as: UTF8.self))
                block.removeAll(keepingCapacity: true)
            }
        }
        output.write(String(decoding: block, as: UTF8.self))
        output.write("]}")
    }

    /// Decimals of a coordinate in the GeoJSON text: 6, about 0.1 m.
    static let coordinateDigits = 6
    /// How many bytes of coordinates `writeLineStringGeoJSON` gathers before writing them: 64 KiB.
    static let lineBlockBytes = 1 << 16

    /// A leg by time's geometry: a LineString of no point (readers take it as none).
    public static let emptyLineStringGeoJSON = #"{"type":"LineString","coordinates":[]}"#
}
