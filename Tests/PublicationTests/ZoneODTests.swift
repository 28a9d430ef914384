import Foundation
import MobilityCore
import Publication
import Testing
import Trips

/// The zone OD (`ZoneOD`) on a case with known answers.
@Suite struct ZoneODTests {
    /// 2024-03-29 00:00 UTC, a Friday; Paris is UTC+1 that day and UTC+2 from 31 March.
    let friday = 1_711_670_400.0

    /// Two squares side by side (west W, east E) with a hole in W; four persons.
    func layer() throws -> ZoneLayer {
        func square(_ west: Double, _ south: Double, _ size: Double) -> [GeoPoint] {
            [(west, south), (west + size, south), (west + size, south + size), (west, south + size), (west, south)].map {
                GeoPoint(longitudeDegrees: $0.0, latitudeDegrees: $0.1)
            }
        }
        return try ZoneLayer(
            path: "zones.geojson",
            fences: [
                (
                    1,
                    Geofence(
                        id: "W", name: "West", kind: "zone", shape: .polygon(rings: [square(2.30, 48.80, 0.05), square(2.34, 48.84, 0.005)])
                    )
                ),
                (3, Geofence(id: "E", name: "East", kind: "zone", shape: .multiPolygon(polygons: [[square(2.35, 48.80, 0.05)]])))
            ], dropped: [(2, "a point, not a polygon")])
    }

    /// Known counts: W→E made by four persons (three in the morning peak, one off-peak), E→W by
    /// two; one trip ends in W's hole, one has no staypoint. k = 3: E→W is suppressed whole;
    /// W→E's off-peak row (one person) is under k and, as the only band row left out, could be
    /// read as all_day minus am_peak, so am_peak goes too. W→E's one bus trip is one person's: its
    /// share, and car's beside it, are left out.
    @Test func zoneODCountsPersonsPerBandAndLeavesNoRowToSubtraction() throws {
        let zones = try layer()
        let paris = try #require(CalendarKeys(zone: "Europe/Paris"))
        let calendars = LocalCalendars(paris)
        let (west, east, hole) = ((48.81, 2.31), (48.81, 2.36), (48.842, 2.342))
        func trip(_ person: String, _ localHour: Double, _ o: (Double, Double)?, _ d: (Double, Double)?, _ mode: String = "car")
            -> ZoneOD.Trip
        {
            ZoneOD.Trip(
                device: person + "-phone", person: person, startSeconds: friday + (localHour - 1) * 3600,
                origin: o.map { (latitude: $0.0, longitude: $0.1) }, destination: d.map { (latitude: $0.0, longitude: $0.1) },
                durationSeconds: 600, distanceMeters: 4000, mainMode: mode)
        }
        let trips = [
            trip("ann", 7.5, west, east), trip("bo", 8, west, east, "bus"), trip("cy", 9.9, west, east), trip("di", 12, west, east),
            trip("ann", 17, east, west), trip("bo", 17.5, east, west), trip("cy", 8, west, hole), trip("di", 8, nil, east)
        ]
        let od = ZoneOD(trips, layer: zones, calendars: calendars, bands: TimeBands(), minimumPersons: 3)
        #expect(od.outsideTrips == 1 && od.unplacedTrips == 1)
        #expect(od.suppressedPairs == 1 && od.suppressedTrips == 2)
        #expect(od.complementaryPairs == 0 && od.complementaryTrips == 0, "no whole-day pair was left out beside E→W")
        #expect(od.suppressedBandRows == 2 && od.complementaryRows == 1, "\(od.suppressedBandRows) \(od.complementaryRows)")
        #expect(od.rows.count == 1)
        let row = try #require(od.rows.first)
        #expect(row.band == "all_day" && row.origin == 0 && row.destination == 1 && row.trips == 4 && row.persons == 4)
        // Bus is one person's (bo), so `other`, under k; car's share would give it away as the row's rest: both left out.
        #expect(od.recoding.names == ["bus"] && row.modeShares.isEmpty && row.suppressedModes == ["car", "other"])
        #expect(od.suppressedShares == 1 && od.complementaryShares == 1)
        // With k = 1 every row stands: all_day and each band of each pair.
        let open = ZoneOD(trips, layer: zones, calendars: calendars, bands: TimeBands(), minimumPersons: 1)
        #expect(
            open.rows.map { "\($0.band) \($0.origin)>\($0.destination) \($0.trips)" } == [
                "all_day 0>1 4", "all_day 1>0 2", "am_peak 0>1 3", "pm_peak 1>0 2", "off_peak 0>1 1"
            ])
    }
}
