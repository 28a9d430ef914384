import Foundation
import HeatMaps
import MobilityCore
import Testing

/// A device's fixes added piece by piece (the heat-map stage streams them from the store)
/// count exactly what its whole track counts: the same cells, fixes, devices, persons and
/// seconds at rest, to the last bit, in every map and in the device's own cells.
@Suite struct HeatMapPiecesTests {
    typealias Intervals = HeatMapLayers.Intervals

    /// A day of a device: stays of a few minutes (a fix every 7.3 s, so the seconds at rest
    /// are sums of fractions whose order shows), and legs by walk, bus and car between them,
    /// with a gap longer than the dwell step in one stay.
    func day(seed: UInt64, start: Double) -> (points: [TrackPoint], intervals: Intervals) {
        var generator = SeededGenerator(seed: seed)
        var points: [TrackPoint] = []
        var stays: [(start: Double, end: Double)] = []
        var legs: [(start: Double, end: Double, mode: Mode?)] = []
        var (time, latitude, longitude) = (start, 48.85, 2.35) // every device starts in one place
        for stop in 0..<6 {
            let stayStart = time
            for index in 0..<Int.random(in: 30...90, using: &generator) {
                if stop == 2, index == 20 { time += 1_200 } // a gap at rest longer than a dwell step
                points.append(
                    .init(
                        timeSeconds: time, latitudeDegrees: latitude + Double.random(in: -2e-5...2e-5, using: &generator),
                        longitudeDegrees: longitude))
                time += 7.3
            }
            stays.append((stayStart, time - 7.3))
            let mode: Mode? = [.walk, .bus, .car, nil][stop % 4]
            let legStart = time
            for _ in 0..<Int.random(in: 40...120, using: &generator) {
                latitude += Double.random(in: 0...3e-4, using: &generator)
                longitude += Double.random(in: -3e-4...3e-4, using: &generator)
                points.append(.init(timeSeconds: time, latitudeDegrees: latitude, longitudeDegrees: longitude))
                time += 3.1
            }
            legs.append((legStart, time - 3.1, mode))
        }
        return (points, (stays, legs))
    }

    @Test func piecesCountWhatTheWholeTrackCounts() {
        let devices = [("ann", "a1", 1), ("ann", "a2", 2), ("bob", "b1", 3), ("cy", "c1", 4), ("cy", "c2", 5)].map {
            (person: $0.0, device: $0.1, day: day(seed: UInt64($0.2), start: 1_714_982_400 + Double($0.2) * 600))
        }
        var morning = HeatMapFilter()
        morning.hours = Set(6..<9)
        for filter in [HeatMapFilter(), morning] {
            let grid = HeatGrid(cellMeters: 50)
            var whole = HeatMapLayers(grid: grid, filter: filter)
            var ownWhole: [String] = []
            for device in devices {
                let track = DeviceTrack(device: device.device, points: device.day.points)
                whole.add(track, intervals: device.day.intervals, person: device.person)
                // The device's own cells, counted the old way: a map of its own per map, unfiltered by the device's calendar.
                let modes = FixModes(track: track, staypoints: device.day.intervals.stays, legs: device.day.intervals.legs)
                let maps = Set(device.day.intervals.legs.compactMap(\.mode) + [.still]).sorted()
                for (name, mapFilter) in [("all", filter)] + maps.map({ ($0.rawValue, filter.only($0)) }) {
                    var own = HeatMap(grid: grid, filter: mapFilter)
                    own.add(track, modes: modes, person: device.person)
                    ownWhole += own.cells.sorted { $0.key < $1.key }.map {
                        "\(name) \(grid.id($0.key)) \(device.device) \(device.person) \($0.value.fixes) \($0.value.dwellSeconds.bitPattern)"
                    }
                }
            }
            for pieceSize in [1, 2, 7, 100, 10_000] {
                var pieces = HeatMapLayers(grid: grid, filter: filter)
                var ownPieces: [HeatMapLayers.DeviceCell] = []
                for device in devices {
                    var adding = pieces.begin(
                        intervals: device.day.intervals, device: device.device, person: device.person, keepingCells: true)
                    // Half the day streamed, then taken back (as when the store's order turns out not to be time's).
                    pieces.add(Array(device.day.points.prefix(device.day.points.count / 2)), to: &adding)
                    pieces.rollBack(&adding)
                    for start in stride(from: 0, to: device.day.points.count, by: pieceSize) {
                        pieces.add(Array(device.day.points[start..<min(start + pieceSize, device.day.points.count)]), to: &adding)
                    }
                    ownPieces += pieces.finish(&adding)
                }
                let expected = whole.published(minimumPersons: 1), found = pieces.published(minimumPersons: 1)
                #expect(found.map(\.name) == expected.map(\.name) && expected.count == 5, "pieces of \(pieceSize)")
                for (a, b) in zip(found, expected) {
                    let same = a.cells.map(\.cell) == b.cells.map(\.cell) && a.cells.map(\.counts) == b.cells.map(\.counts)
                    #expect(same && a.suppressed == b.suppressed, "map \(a.name), pieces of \(pieceSize)")
                }
                let own = ownPieces.map { "\($0.map) \($0.cellID) \($0.device) \($0.person) \($0.fixes) \($0.dwellSeconds.bitPattern)" }
                #expect(own == ownWhole && own.count > 50, "own cells, pieces of \(pieceSize)")
            }
            let all = whole.published(minimumPersons: 1)[0].cells
            #expect(all.contains { $0.counts.persons == 3 } && all.map(\.counts.dwellSeconds).reduce(0, +) > 0)
        }
    }
}
