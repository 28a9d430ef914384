import Foundation
@testable import MobilityCore
import Testing
import TestSupport

/// The zones' borders (`ZoneBoundaries`, `models/time-zones.bin`). The points within 1 km of a
/// border were placed 500 m either side of it on a line between the two towns, with
/// timezonefinder 9.0.0 on timezone-boundary-builder's unsimplified polygons; each pair keeps
/// different clocks, and the nearest zone city of the first (a nearest-city rule's answer)
/// lies across the border. `scripts/peers/tests/test_time_zones.py` compares many more points.
@Suite struct ZoneBoundariesTests {
    let boundaries = ShippedData.zoneBoundaries

    @Test(arguments: [
        // Lithuania at Panemunė, across the Neman from Sovetsk: Kaliningrad (UTC+2) is nearer than Vilnius (UTC+3 in summer).
        (55.08400, 21.89104, "Europe/Kaliningrad"), (55.09025, 21.90231, "Europe/Vilnius"),
        // Badajoz and Elvas: Spain keeps CET, Portugal WET; Lisbon is 200 km off, Madrid 330.
        (38.87889, -7.02737, "Europe/Madrid"), (38.87907, -7.03890, "Europe/Lisbon"),
        // Khorgos: Xinjiang's clock (UTC+6) against Kazakhstan's (UTC+5 since 2024).
        (44.21375, 80.40674, "Asia/Urumqi"), (44.21651, 80.39482, "Asia/Almaty"),
        // GeoLife's Beijing: nearer Pyongyang than Shanghai, in China's one zone.
        (39.9042, 116.4074, "Asia/Shanghai"), (40.0, 116.3, "Asia/Shanghai"),
        (48.8566, 2.3522, "Europe/Paris"), (45.764, 4.8357, "Europe/Paris"), (60.1699, 24.9384, "Europe/Helsinki"),
        (40.7128, -74.0060, "America/New_York"), (37.7749, -122.4194, "America/Los_Angeles"),
        // A ship in the North Sea and one in the Indian Ocean: their nautical zones.
        (56.0, 3.5, "Etc/GMT"), (-20.0, 75.0, "Etc/GMT-5"), (54.0, -30.0, "Etc/GMT+2")
    ])
    func theZoneOfAPlace(latitude: Double, longitude: Double, zone: String) {
        #expect(boundaries.zone(latitude: latitude, longitude: longitude) == zone)
    }

    @Test func theBordersKeepDifferentClocks() {
        let summer = utc("2024-07-01T12:00:00Z")
        for (a, b, hours) in [
            ("Europe/Kaliningrad", "Europe/Vilnius", 1.0), ("Europe/Lisbon", "Europe/Madrid", 1), ("Asia/Almaty", "Asia/Urumqi", 1)
        ] {
            let (first, second) = (CalendarKeys(zone: a)!, CalendarKeys(zone: b)!)
            #expect(second.offsetSeconds(at: summer) - first.offsetSeconds(at: summer) == hours * 3600, "\(a) and \(b)")
        }
        #expect(CalendarKeys(zone: "Etc/GMT-5")!.offsetSeconds(at: summer) == 5 * 3600)
    }

    @Test func everyZoneOfTheFileIsAZoneOfTheTimeLibrary() {
        #expect(boundaries.zones.count > 400)
        let unknown = boundaries.zones.filter { CalendarKeys(zone: $0) == nil }
        #expect(unknown.isEmpty, "zones the calendar cannot use: \(unknown)")
        #expect(boundaries.source.contains("timezone-boundary-builder"))
    }

    @Test func aFileThatIsNoBoundaryFileIsAnErrorNamingIt() throws {
        #expect(throws: PipelineError.self) { try ZoneBoundaries(data: Data("not zones".utf8), path: "x.bin") }
        let whole = try Data(contentsOf: URL(fileURLWithPath: ShippedData.zoneBoundariesPath))
        do {
            _ = try ZoneBoundaries(data: whole.prefix(whole.count / 2), path: "half.bin")
            Issue.record("half a file was read")
        } catch let error as PipelineError {
            #expect(error.code == .modelUnreadable)
        }
        do {
            _ = try ZoneBoundaries(contentsOf: "/nonexistent/time-zones.bin")
            Issue.record("a missing file was read")
        } catch let error as PipelineError {
            #expect(error.code == .modelMissing && error.message.contains("/nonexistent/time-zones.bin"))
        }
    }

    @Test func nautical() {
        #expect(ZoneBoundaries.nautical(longitude: 3) == "Etc/GMT")
        #expect(ZoneBoundaries.nautical(longitude: 75) == "Etc/GMT-5")
        #expect(ZoneBoundaries.nautical(longitude: -30) == "Etc/GMT+2")
    }

    private func utc(_ text: String) -> Double { ISO8601.parse(text)!.secondsSince1970 }
}
