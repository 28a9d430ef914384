import Foundation
import HeatMaps
import MobilityCore
import Testing
import Trips

@Suite struct HeatGridTests {
    @Test func cellsAreTheirSizeOnTheGroundAtEveryLatitude() {
        for latitude in [-60.0, -10, 0, 35, 48.85, 60, 70] {
            let grid = HeatGrid(cellMeters: 100)
            let cell = grid.cell(latitudeDegrees: latitude, longitudeDegrees: 2.35)
            let b = grid.bounds(cell)
            let height = Geodesy.haversineMeters(latitude1: b.south, longitude1: 2.35, latitude2: b.north, longitude2: 2.35)
            let middle = (b.south + b.north) / 2
            let width = Geodesy.haversineMeters(latitude1: middle, longitude1: b.west, latitude2: middle, longitude2: b.east)
            #expect(abs(height - 100) < 0.01 && abs(width - 100) < 0.5, "at \(latitude)°: \(width) × \(height) m")
            #expect(b.south <= latitude && latitude < b.north && b.west <= 2.35 && 2.35 < b.east)
            #expect(grid.cell(latitudeDegrees: grid.centre(cell).latitude, longitudeDegrees: grid.centre(cell).longitude) == cell)
        }
    }

    @Test func idsAreStableAndNameTheSize() {
        let grid = HeatGrid(cellMeters: 250)
        let a = grid.id(grid.cell(latitudeDegrees: 48.8566, longitudeDegrees: 2.3522))
        #expect(a == grid.id(grid.cell(latitudeDegrees: 48.8566, longitudeDegrees: 2.3522)) && a.hasPrefix("250m:"))
        #expect(a != grid.id(grid.cell(latitudeDegrees: 48.8566, longitudeDegrees: -2.3522)))
    }
}

@Suite struct HeatMapTests {
    /// A device that stays 10 min at `place` (one fix a minute) from `start`, then walks 1 km
    /// north in 12 min (one fix every 10 s).
    func track(_ device: String, place: (Double, Double), start: Double) -> (DeviceTrack, FixModes) {
        var points: [TrackPoint] = []
        for minute in 0..<10 {
            points.append(.init(timeSeconds: start + Double(minute) * 60, latitudeDegrees: place.0, longitudeDegrees: place.1))
        }
        for step in 1...72 {
            points.append(
                .init(
                    timeSeconds: start + 540 + Double(step) * 10, latitudeDegrees: place.0 + Double(step) * 1000 / 72 / 111_195,
                    longitudeDegrees: place.1))
        }
        let track = DeviceTrack(device: device, points: points)
        let modes = FixModes(track: track, staypoints: [(start, start + 540)], legs: [(start + 540, start + 1260, .walk)])
        return (track, modes)
    }

    /// A device that stays at home, walks away and comes back to stay again: its home cell
    /// counts every fix and both stays' rest, and the device and its person once.
    @Test func aDeviceComingBackToACellCountsOnce() {
        let start = 1_714_982_400.0
        var points: [TrackPoint] = []
        for minute in 0..<5 {
            points.append(.init(timeSeconds: start + Double(minute) * 60, latitudeDegrees: 48.85, longitudeDegrees: 2.35))
        }
        for step in 1...10 { // 500 m north and back, a fix every 10 s
            let away = Double(step <= 5 ? step : 10 - step) * 100 / 111_195
            points.append(.init(timeSeconds: start + 240 + Double(step) * 10, latitudeDegrees: 48.85 + away, longitudeDegrees: 2.35))
        }
        for minute in 1...4 {
            points.append(.init(timeSeconds: start + 340 + Double(minute) * 60, latitudeDegrees: 48.85, longitudeDegrees: 2.35))
        }
        let track = DeviceTrack(device: "a", points: points)
        let modes = FixModes(
            track: track, staypoints: [(start, start + 240), (start + 340, start + 580)], legs: [(start + 240, start + 340, .walk)])
        var map = HeatMap(grid: HeatGrid(cellMeters: 100))
        map.add(track, modes: modes, person: "ann")
        let home = map.cells[map.grid.cell(latitudeDegrees: 48.85, longitudeDegrees: 2.35)]!
        #expect(home.devices == 1 && home.persons == 1)
        // 5 + 4 fixes at rest, the leg's last fix (back home), and any leg fix within the home cell.
        let homeFixes = points.filter {
            map.grid.cell(latitudeDegrees: $0.latitudeDegrees, longitudeDegrees: 2.35)
                == map.grid.cell(latitudeDegrees: 48.85, longitudeDegrees: 2.35)
        }.count
        #expect(home.fixes == homeFixes && homeFixes >= 10)
        // Four steps at rest in each stay: 0–240 s, and 340–580 s from the fix back home.
        #expect(abs(home.dwellSeconds - (4 * 60 + 4 * 60)) < 1e-6, "\(home.dwellSeconds)")
        #expect(map.cells.values.map(\.fixes).reduce(0, +) == points.count)
        #expect(map.cells.values.allSatisfy { $0.devices == 1 && $0.persons == 1 })
    }

    @Test func countsFixesDevicesAndRestAndSuppressesRareCells() {
        var map = HeatMap(grid: HeatGrid(cellMeters: 100))
        let monday8 = 1_714_982_400.0 // 2024-05-06 08:00 UTC, a Monday
        for (index, device) in ["a", "b", "c"].enumerated() {
            let (t, m) = track(device, place: (48.85, 2.35), start: monday8 + Double(index) * 30)
            map.add(t, modes: m)
        }
        let (lone, loneModes) = track("d", place: (48.80, 2.30), start: monday8) // somewhere no one else goes
        map.add(lone, modes: loneModes)
        let home = map.grid.cell(latitudeDegrees: 48.85, longitudeDegrees: 2.35)
        let counts = map.cells[home]!
        #expect(counts.devices == 3 && counts.fixes >= 30 && counts.fixes <= 3 * 12)
        #expect(abs(counts.dwellSeconds - 3 * 540) < 1e-6, "nine one-minute steps at rest per device")
        let (published, suppressed) = map.published(minimumPersons: 3)
        #expect(published.allSatisfy { $0.counts.devices >= 3 } && published.contains { $0.cell == home })
        #expect(suppressed == map.cells.count - published.count && suppressed >= 10, "the lone device's cells are all suppressed")
        #expect(!published.contains { $0.cell == map.grid.cell(latitudeDegrees: 48.80, longitudeDegrees: 2.30) })
        #expect(map.published(minimumPersons: 1).suppressed == 0)
    }

    @Test func filtersByModeHourWeekdayAndDay() throws {
        let monday8 = 1_714_982_400.0
        let (t, m) = track("a", place: (48.85, 2.35), start: monday8)
        func fixes(_ configure: (inout HeatMapParameters) -> Void) throws -> Int {
            var parameters = HeatMapParameters()
            configure(&parameters)
            var map = HeatMap(grid: HeatGrid(), filter: try parameters.filter(calendar: CalendarKeys()))
            map.add(t, modes: m)
            return map.cells.values.reduce(0) { $0 + $1.fixes }
        }
        #expect(try fixes { _ in } == 82)
        #expect(try fixes { $0.modes = ["walk"] } == 72)
        #expect(try fixes { $0.modes = ["still"] } == 10)
        #expect(try fixes { $0.hours = [8] } == 82 && fixes { $0.hours = [9] } == 0)
        #expect(try fixes { $0.weekdays = [0] } == 82 && fixes { $0.weekdays = [1, 2, 3, 4, 5, 6] } == 0)
        #expect(
            try fixes {
                $0.from = "2024-05-06"; $0.to = "2024-05-06"
            } == 82 && fixes { $0.from = "2024-05-07" } == 0)
        var local = HeatMapParameters()
        local.hours = [10]
        var map = HeatMap(grid: HeatGrid(), filter: try local.filter(calendar: CalendarKeys(utcOffsetSeconds: 7200)))
        map.add(t, modes: m)
        #expect(map.cells.values.reduce(0) { $0 + $1.fixes } == 82, "08:00 UTC is 10:00 at UTC+2")
        var bad = HeatMapParameters()
        bad.modes = ["hovercraft"]
        let thrown1 = #expect(throws: PipelineError.self) { try bad.filter(calendar: CalendarKeys()) }
        #expect(thrown1?.code == .invalidConfiguration)
        bad = HeatMapParameters()
        bad.from = "6 May"
        let thrown2 = #expect(throws: PipelineError.self) { try bad.filter(calendar: CalendarKeys()) }
        #expect(thrown2?.code == .invalidConfiguration)
    }

    @Test func mergingDevicesEqualsAddingThemToOneMap() {
        let start = 1_714_982_400.0
        let tracks = ["a", "b", "c"].map { track($0, place: (48.85, 2.35), start: start) }
        var together = HeatMap(grid: HeatGrid())
        for (t, m) in tracks { together.add(t, modes: m) }
        var merged = HeatMap(grid: HeatGrid())
        for (t, m) in tracks {
            var one = HeatMap(grid: HeatGrid())
            one.add(t, modes: m)
            merged.merge(one)
        }
        #expect(merged.cells == together.cells)
    }
}
