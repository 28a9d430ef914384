import Foundation
import MobilityCore
import Testing

@testable import Trips

/// Home, work and trip purposes with known answers: a resident who sleeps at home, works 8 h a
/// weekday 6.6 km east and shops on the way home; a geofence that names a place wins.
@Suite struct PlacePurposesTests {
    let paris = CalendarKeys(zone: "Europe/Paris")!

    /// Monday 6 May 2024 and Tuesday, from local midnight: home, work, home (with a shop on
    /// Monday evening), and home until the end of Tuesday.
    func week() -> TrackScript {
        var script = TrackScript()
        script.intervalSeconds = 30
        script.time = ISO8601.parse("2024-05-05T22:00:00Z")!.secondsSince1970
        for day in 0..<2 {
            script.stay(7.5 * 3600 - (day == 0 ? 0 : 0))
            script.move(to: SIMD2(6640, 0), speedMetersPerSecond: 10, mode: .car) // work
            script.stay(8 * 3600)
            if day == 0 {
                script.move(to: SIMD2(3000, 1500), speedMetersPerSecond: 10, mode: .car) // the shop
                script.stay(40 * 60)
            }
            script.move(to: SIMD2(0, 0), speedMetersPerSecond: 10, mode: .car) // home
            let midnight = ISO8601.parse(day == 0 ? "2024-05-06T22:00:00Z" : "2024-05-07T22:00:00Z")!.secondsSince1970
            script.stay(midnight - script.time)
        }
        return script
    }

    func analysed(_ script: TrackScript, geofences: [Geofence] = [], method: PlacePurposes.Method) -> TripAnalysis.Result {
        let analysis = TripAnalysis()
        var result = analysis.result([analysis.analyse(script.track(), geofences: geofences, modes: script.timeline)])
        let calendars = LocalCalendars(paris, devices: ["d1": .init(calendar: paris, source: "configuration")])
        PlacePurposes.label(
            &result, geofenceKinds: Dictionary(uniqueKeysWithValues: geofences.map { ($0.id, $0.kind) }), calendars: calendars,
            method: method)
        return result
    }

    func place(_ result: TripAnalysis.Result, _ purpose: String) -> SIMD2<Double>? {
        guard let location = result.locations.first(where: { $0.purpose?.purpose == purpose }) else { return nil }
        let north = (location.latitudeDegrees - TrackScript.originLatitude) * TrackScript.metresPerDegree
        let east =
            (location.longitudeDegrees - TrackScript.originLongitude) * TrackScript.metresPerDegree
            * cos(TrackScript.originLatitude * .pi / 180)
        return SIMD2(east, north)
    }

    @Test(arguments: PlacePurposes.Method.allCases) func homeIsWhereTheNightsAreAndWorkWhereTheWorkingHoursAre(method: PlacePurposes.Method)
    {
        let result = analysed(week(), method: method)
        let home = place(result, "home"), work = place(result, "work")
        #expect(home.map { ($0 * $0).sum().squareRoot() < 50 } == true, "home at \(String(describing: home))")
        #expect(work.map { (($0 - SIMD2(6640, 0)) * ($0 - SIMD2(6640, 0))).sum().squareRoot() < 50 } == true)
        #expect(result.locations.filter { $0.purpose != nil }.allSatisfy { $0.purpose!.method == method.rawValue })
        let device = result.devices[0]
        let purposes = device.trips.map { PlacePurposes.ends(of: $0, in: device).trip }
        // home→work, work→shop, shop→home, home→work, work→home.
        #expect(purposes == ["HBW", "NHB", "HBO", "HBW", "HBW"], "\(purposes)")
        #expect(device.staypoints.allSatisfy { $0.purpose != nil })
        #expect(device.staypoints.filter { $0.purpose == "other" }.count == 1) // the shop
    }

    @Test func aGeofenceOfKindHomeWins() {
        // The shop's geofence says it is home (a resident who lives above it): it is, by geofence.
        let fence = TrackScript.circle("flat", at: SIMD2(3000, 1500), radius: 100, kind: "home")
        let result = analysed(week(), geofences: [fence], method: .osna)
        let labelled = result.locations.filter { $0.purpose?.purpose == "home" }
        #expect(labelled.count == 1 && labelled[0].purpose?.method == "geofence" && labelled[0].purpose?.score == 1)
        #expect(place(result, "home").map { (($0 - SIMD2(3000, 1500)) * ($0 - SIMD2(3000, 1500))).sum().squareRoot() < 50 } == true)
        // Work is still found by the hours; where the resident sleeps is then another place.
        #expect(result.locations.first { $0.purpose?.purpose == "work" }?.purpose?.method == "osna")
    }

    /// Monday's home → work → shop → home and Tuesday's home → work → home are two tours,
    /// home-based, reaching work, by car; and, as trackintel counts tours, work → shop → home →
    /// work, back at work within a day, is a third (work-based) that overlaps both: a trip can
    /// be on several tours.
    @Test func aChainOfTripsMakesTwoToursAndTrackintelsOverlap() {
        let result = analysed(week(), method: .osna)
        let tours = Tour.tours(result.devices[0])
        #expect(tours.map { [$0.firstTrip, $0.lastTrip] } == [[0, 2], [1, 3], [3, 4]])
        #expect(tours.map(\.trips) == [3, 3, 2])
        #expect(tours.map(\.kind) == ["HBW", "WB", "HBW"])
        #expect(tours.map(\.anchorPurpose) == ["home", "work", "home"])
        #expect(tours.allSatisfy { $0.mainMode == .car })
        #expect(tours.map { result.devices[0].staypoints[$0.anchor].purpose } == ["home", "work", "home"])
        // Cut Tuesday's way home: its last trip never comes back, so Tuesday's home tour is gone.
        var device = result.devices[0]
        device.trips.removeLast()
        #expect(Tour.tours(device).map { [$0.firstTrip, $0.lastTrip] } == [[0, 2], [1, 3]])
    }

    @Test func tripPurposesFollowTheFourStepModel() {
        #expect(PlacePurposes.tripPurpose(origin: "home", destination: "work") == "HBW")
        #expect(PlacePurposes.tripPurpose(origin: "work", destination: "home") == "HBW")
        #expect(PlacePurposes.tripPurpose(origin: "other", destination: "home") == "HBO")
        #expect(PlacePurposes.tripPurpose(origin: "home", destination: "home") == "HBO")
        #expect(PlacePurposes.tripPurpose(origin: "work", destination: "other") == "NHB")
        #expect(PlacePurposes.tripPurpose(origin: nil, destination: "home") == nil)
    }
}
