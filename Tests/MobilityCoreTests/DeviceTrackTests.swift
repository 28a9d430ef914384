import MobilityCore
import Testing

/// `DeviceTrack`: timed fixes sorted by time, exact duplicates removed (trackintel's
/// `exclude_duplicate_pfs`), untimed ones dropped, whatever order they came in; and
/// `TrackFixes`, some of its points read as `PositionFix`es.
@Suite struct DeviceTrackTests {
    static func point(_ t: Double, _ lat: Double = 48) -> TrackPoint {
        TrackPoint(timeSeconds: t, latitudeDegrees: lat, longitudeDegrees: 2, accuracyMeters: 5)
    }

    @Test func fixesAreSortedUniqueAndTimed() {
        let given = [
            Self.point(3), Self.point(1), Self.point(.nan), Self.point(2), Self.point(1), Self.point(2, 49), Self.point(3),
            Self.point(.infinity), Self.point(0)
        ]
        let track = DeviceTrack(device: "d", points: given)
        // Equal times at other places both stay (not exact duplicates), in the order given.
        #expect(track.points.array == [Self.point(0), Self.point(1), Self.point(2), Self.point(2, 49), Self.point(3)])
        #expect(DeviceTrack(device: "d", points: []).points.isEmpty)
        let sorted = (0..<1_000).map { Self.point(Double($0)) }
        #expect(DeviceTrack(device: "d", points: sorted + sorted).points.array == sorted)
    }

    /// A leg's LineString: each point as `[lon,lat]` to 6 decimals (`FixedPoint.text`), over a
    /// leg longer than one block of bytes, with negative, tiny and rounding-to-zero coordinates.
    @Test func lineStringsAreTheirPointsToSixDecimals() throws {
        var g = SeededGenerator(seed: 3)
        var points: [TrackPoint] = []
        for index in 0..<12_000 {
            let latitude: Double = g.uniform(-90...90) * (index % 7 == 0 ? 1e-7 : 1)
            let longitude: Double = g.uniform(-180...180) * (index % 5 == 0 ? 1e-6 : 1)
            points.append(TrackPoint(timeSeconds: Double(index), latitudeDegrees: latitude, longitudeDegrees: longitude))
        }
        let track = DeviceTrack(device: "d", points: points)
        for range in [0...0, 3...9, 0...(points.count - 1), 4_000...11_999] {
            let coordinates = track.points[range].map { (point: TrackPoint) -> String in
                let longitude = FixedPoint.text(point.longitudeDegrees, digits: 6)
                return "[" + longitude + "," + FixedPoint.text(point.latitudeDegrees, digits: 6) + "]"
            }
            let expected = #"{"type":"LineString","coordinates":["# + coordinates.joined(separator: ",") + "]}"
            #expect(track.lineStringGeoJSON(range) == expected, "\(range)")
        }
        #expect(track.lineStringGeoJSON(0...(points.count - 1)).utf8.count > 200_000, "more than one block")
    }

    @Test func trackFixesReadTheChosenPointsAsFixes() {
        let points = (0..<10).map { Self.point(Double($0), 48 + Double($0) / 100) }
        let fixes = TrackFixes(TrackPoints(points), indices: [1, 4, 5, 9])
        #expect(fixes.count == 4 && Array(fixes.times) == [1, 4, 5, 9])
        // A segment of the times is indexed from 0, and a segment of a segment reads on.
        let middle = fixes.times.segment(1..<4)
        #expect(Array(middle) == [4, 5, 9] && middle[0] == 4 && Array(middle.segment(1..<3)) == [5, 9])
        #expect(fixes[2] == PositionFix(points[5]) && fixes[2].accuracyMeters == 5)
        #expect(Array(fixes[1..<3]) == [PositionFix(points[4]), PositionFix(points[5])])
        #expect(Array(TrackFixes(TrackPoints(points))) == points.map(PositionFix.init))
        // By a flag per point, and by a range.
        let flags = points.indices.map { [1, 4, 5, 9].contains($0) }
        #expect(
            Array(TrackFixes(TrackPoints(points), where: flags)) == Array(fixes)
                && Array(TrackFixes(TrackPoints(points), where: flags).times) == [1, 4, 5, 9])
        #expect(TrackFixes(TrackPoints(points), where: flags.map { _ in false }).isEmpty)
        #expect(Array(TrackFixes(TrackPoints(points), range: 3...6)) == points[3...6].map(PositionFix.init))
        #expect(Array(TrackFixes(TrackPoints(points), range: 9...9).times) == [9])
        // One run of the track (a leg's fixes, a track that never stops) is held by its ends
        // alone, and reads as the same points by index.
        let run = TrackFixes(TrackPoints(points), where: points.indices.map { (2...7).contains($0) })
        #expect(Array(run) == Array(TrackFixes(TrackPoints(points), indices: 2...7)) && Array(run.times) == [2, 3, 4, 5, 6, 7])
        #expect(Array(run.times.segment(1..<4)) == [3, 4, 5] && Array(run.times.segment(1..<4).segment(2..<3)) == [5])
        #expect(Array(TrackFixes(TrackPoints(points), range: 3...6).times.segment(0..<2)) == [3, 4])
    }
}
