import Foundation
import MobilityCore

/// Tours: chains of a device's trips that leave a place and come back to it, as trackintel's
/// `generate_tours` finds them (with staypoints' locations, `max_time` 1 day, no spatial gap):
/// trips are taken in time order; one that does not start where the previous ended starts the
/// chain afresh; a trip that ends at the location an earlier trip of the chain started from,
/// within a day of that start, closes the tour from that trip to itself (the nearest such
/// start: nested tours are tours of their own, and a trip closes one tour at most).
///
/// A tour's trips are consecutive trips of one device, so a tour is named by its first and last
/// trip (`first_trip_id`, `last_trip_id` in `tours.csv`). "The same location" is the device's own
/// locations; with the data-set scope, its staypoints clustered apart at trackintel's defaults
/// (as `PlacePurposes` does), so a device's tours do not depend on who else was recorded.
public struct Tour: Hashable, Sendable {
    public var device: String
    /// Indices of the device's first and last trip on the tour.
    public var firstTrip: Int, lastTrip: Int
    /// The staypoint the tour leaves from (index into the device's staypoints); its location is
    /// where the tour returns.
    public var anchor: Int
    /// The anchor's purpose (home, work, other), and whether it is home.
    public var anchorPurpose: String
    public var isHomeBased: Bool { anchorPurpose == "home" }
    /// `work` when the tour reaches a work place (other than its anchor), else `other`.
    public var mainPurpose: String
    /// The mode of the tour's longest trip (by distance).
    public var mainMode: Mode?
    public var startSeconds: Double, endSeconds: Double, distanceMeters: Double

    public var trips: Int { lastTrip - firstTrip + 1 }

    /// The tour's kind for a plan: `HBW` (home-based, reaching work), `HBO` (home-based, other),
    /// `WB` (work-based: from work back to work, a lunch errand), `NHB` (from elsewhere).
    public var kind: String {
        switch anchorPurpose {
        case "home": mainPurpose == "work" ? "HBW" : "HBO"
        case "work": "WB"
        default: "NHB"
        }
    }

    /// trackintel's `max_time`: a tour takes at most a day from its first trip's start to its last trip's end.
    public static let maxSeconds = 86_400.0

    /// The device's tours, in the order they close.
    public static func tours(_ device: DeviceTrips, locations parameters: LocationParameters = LocationParameters()) -> [Tour] {
        let trips = device.trips
        var staypoints = device.staypoints
        if parameters.scope != .device {
            var byDevice = LocationParameters()
            byDevice.scope = .device
            _ = LocationClusterer(parameters: byDevice).cluster(&staypoints)
        }
        func location(_ staypoint: Int?) -> Int? { staypoint.flatMap { staypoints[$0].location } }
        func same(_ a: Int?, _ b: Int?) -> Bool { location(a).map { $0 == location(b) } ?? false }
        let order = trips.indices.sorted { (trips[$0].startSeconds, $0) < (trips[$1].startSeconds, $1) }
        var candidates: [Int] = [], tours: [Tour] = []
        for index in order {
            let trip = trips[index]
            if let previous = candidates.last, !same(trips[previous].destinationStaypoint, trip.originStaypoint) {
                candidates = [index]
                continue
            }
            candidates.append(index)
            guard trip.destinationStaypoint != nil else { continue }
            var keepFrom = 0
            for (j, candidate) in candidates.reversed().enumerated() {
                if trip.endSeconds - trips[candidate].startSeconds > maxSeconds {
                    keepFrom = candidates.count - j - 1
                    break
                }
                guard trips[candidate].originStaypoint != nil else { continue }
                if same(trips[candidate].originStaypoint, trip.destinationStaypoint) {
                    tours.append(tour(Array(candidates[(candidates.count - j - 1)...]), device))
                    break
                }
            }
            candidates.removeFirst(keepFrom)
        }
        return tours
    }

    static func tour(_ members: [Int], _ device: DeviceTrips) -> Tour {
        let trips = members.map { device.trips[$0] }
        let anchor = trips[0].originStaypoint!
        let visited = trips.dropLast().compactMap { $0.destinationStaypoint.flatMap { device.staypoints[$0].purpose } }
        let anchorPurpose = device.staypoints[anchor].purpose ?? "other"
        let longest = trips.max { ($0.distanceMeters, $1.startSeconds) < ($1.distanceMeters, $0.startSeconds) }
        return Tour(
            device: device.device, firstTrip: members.min()!, lastTrip: members.max()!, anchor: anchor,
            anchorPurpose: anchorPurpose, mainPurpose: anchorPurpose != "work" && visited.contains("work") ? "work" : "other",
            mainMode: longest?.mainMode, startSeconds: trips[0].startSeconds, endSeconds: trips.last!.endSeconds,
            distanceMeters: trips.reduce(0) { $0 + $1.distanceMeters })
    }
}
