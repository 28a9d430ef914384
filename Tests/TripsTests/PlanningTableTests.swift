import Foundation
import MobilityCore
import Testing
import Trips

/// Time bands and the zone OD (`TimeBands`, `ZoneLayer`, `ZoneOD`) on cases with known answers.
@Suite struct PlanningTableTests {
    /// 2024-03-29 00:00 UTC, a Friday; Paris is UTC+1 that day and UTC+2 from 31 March.
    let friday = 1_711_670_400.0

    @Test func bandsAreHalfOpenOnTheLocalClockAndMayWrapMidnight() throws {
        let bands = TimeBands()
        #expect(bands.names == ["am_peak", "pm_peak", "off_peak"])
        #expect(bands.specifications == ["am_peak 07:00-10:00", "pm_peak 16:00-19:00"])
        for (clock, band) in [
            (6 * 3600 + 3599, "off_peak"), (7 * 3600, "am_peak"), (9 * 3600 + 3599, "am_peak"), (10 * 3600, "off_peak"),
            (16 * 3600, "pm_peak"), (19 * 3600, "off_peak")
        ] {
            #expect(bands.name(secondsOfDay: Double(clock)) == band, "\(clock)")
        }
        // 07:30 in Paris is 06:30 UTC in winter and 05:30 UTC in summer: the same band both times.
        let paris = try #require(CalendarKeys(zone: "Europe/Paris"))
        #expect(bands.name(startSeconds: friday + 6.5 * 3600, calendar: paris) == "am_peak")
        #expect(bands.name(startSeconds: friday + 3 * 86_400 + 5.5 * 3600, calendar: paris) == "am_peak")
        #expect(bands.name(startSeconds: friday + 5.5 * 3600, calendar: paris) == "off_peak") // 06:30 in winter
        let night = try TimeBands(specifications: ["night 22:00-05:00", "early 04:00-06:00"], other: "day")
        #expect(night.name(secondsOfDay: 23 * 3600) == "night" && night.name(secondsOfDay: 4.5 * 3600) == "night")
        #expect(night.name(secondsOfDay: 5 * 3600) == "early" && night.name(secondsOfDay: 12 * 3600) == "day")
    }

    @Test func aBandThatCannotBeReadSaysWhatWasExpected() {
        for (specifications, other) in [
            (["am 7-10"], "rest"), (["am 07:00-07:00"], "rest"), (["am 07:00-10:00", "am 16:00-19:00"], "rest"),
            (["am 07:00-10:00"], "all_day"), (["am 25:00-26:00"], "rest")
        ] {
            #expect(throws: PipelineError.self, "\(specifications)") { try TimeBands(specifications: specifications, other: other) }
        }
        var parameters = PlanningParameters()
        parameters.timeBands = ["am_peak 7h-10h"]
        #expect(parameters.problem?.contains("name HH:MM-HH:MM") == true)
    }

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

    @Test func zonesPlaceEndsAndHolesAreOutside() throws {
        let zones = try layer()
        #expect(zones.zone(latitudeDegrees: 48.81, longitudeDegrees: 2.31) == 0)
        #expect(zones.zone(latitudeDegrees: 48.81, longitudeDegrees: 2.36) == 1)
        #expect(zones.zone(latitudeDegrees: 48.842, longitudeDegrees: 2.342) == nil) // in W's hole
        #expect(zones.zone(latitudeDegrees: 48.90, longitudeDegrees: 2.31) == nil)
        #expect(abs(zones.zones[1].center.longitudeDegrees - 2.375) < 1e-9 && abs(zones.zones[1].center.latitudeDegrees - 48.825) < 1e-9)
        #expect(throws: PipelineError.self) {
            try ZoneLayer(path: "z", fences: [(1, zones.zonesAsFences[0]), (2, zones.zonesAsFences[0])], dropped: [])
        }
        #expect(throws: PipelineError.self) { try ZoneLayer(path: "z", fences: [], dropped: [(1, "no geometry")]) }
    }

}

extension ZoneLayer {
    /// The zones as geofences again (for building a second layer in a test).
    var zonesAsFences: [Geofence] { zones.map { Geofence(id: $0.id, name: $0.name, kind: "zone", shape: $0.shape) } }
}

/// `ExpansionWeights` with known answers: zone start weights, raking to an attribute's margins,
/// and every reason a person gets none.
@Suite struct ExpansionWeightsTests {
    @Test func rakingMeetsTheZonesAndTheMarginsAndSaysWhoIsLeftOut() {
        let persons: [ExpansionWeights.Person] = [
            .init(person: "a", homeZone: "N", validDays: 2, attributes: ["car": "yes"]),
            .init(person: "b", homeZone: "N", validDays: 1, attributes: ["car": "no"]),
            .init(person: "c", homeZone: "S", validDays: 4, attributes: ["car": "yes"]),
            .init(person: "d", homeZone: "S", validDays: 1, attributes: ["car": "no"]),
            .init(person: "e", homeZone: nil, validDays: 1), .init(person: "f", homeZone: nil, hasHome: true, validDays: 1),
            .init(person: "g", homeZone: "W", validDays: 1), .init(person: "h", homeZone: "N", validDays: 0),
            .init(person: "i", homeZone: "N", validDays: 1, attributes: [:])
        ]
        // 1,000 in N and 3,000 in S; 1,000 car owners and 3,000 without.
        let weights = ExpansionWeights(
            persons: persons, zonePopulation: ["N": 1000, "S": 3000], margins: ["car": ["yes": 1000, "no": 3000]])
        #expect(
            weights.unweighted == [
                "no home": 1, "home in no zone of the layer": 1, "home outside the population's zones": 1, "no valid person-day": 1,
                "no car of the margins": 1
            ])
        #expect(weights.converged && weights.largestMarginError < ExpansionWeights.tolerance)
        let w = weights.weights
        #expect(abs(w["a"]! + w["b"]! - 1000) < 1e-3 && abs(w["c"]! + w["d"]! - 3000) < 1e-3)
        #expect(abs(w["a"]! + w["c"]! - 1000) < 1e-3 && abs(w["b"]! + w["d"]! - 3000) < 1e-3)
        // Spread over valid days: c's weight per day is a quarter of it.
        #expect(abs(weights.dailyWeights["c"]! - w["c"]! / 4) < 1e-9)
        // Four weighted persons: d, without a car in S, alone stands for 2,250 of the 4,000 residents.
        #expect(Set(weights.implausible.keys) == ["d"] && weights.implausible["d"]!.contains("56.2 %"), "\(weights.implausible)")
    }

    /// The plausibility bounds with known answers: one weighted person is a whole district; a
    /// person six times the median weight is named; the others are not.
    @Test func aWeightOfMostOfThePopulationOrFarAboveTheMedianIsImplausible() {
        let alone = ExpansionWeights(
            persons: [.init(person: "a", homeZone: "N", validDays: 1), .init(person: "b", homeZone: "N", validDays: 0)],
            zonePopulation: ["N": 2_112_000])
        #expect(alone.weights == ["a": 2_112_000])
        #expect(alone.implausible["a"]?.contains("100.0 % of the 2112000 residents") == true, "\(alone.implausible)")
        // Twelve persons of 100 residents each in N, one of 600 in S: 6 times the median, a third of the residents.
        let persons =
            (0..<12).map { ExpansionWeights.Person(person: "n\($0)", homeZone: "N", validDays: 1) }
            + [.init(person: "s", homeZone: "S", validDays: 1)]
        let weights = ExpansionWeights(persons: persons, zonePopulation: ["N": 1200, "S": 600])
        #expect(Set(weights.implausible.keys) == ["s"], "\(weights.implausible)")
        #expect(weights.implausible["s"]?.contains("6.0 times the median weight 100.0") == true, "\(weights.implausible)")
        // At five times the median, the bound itself, the weight stands.
        #expect(ExpansionWeights.implausible(["a": 100, "b": 100, "c": 100, "d": 500], representedPopulation: 10_000).isEmpty)
    }
}
