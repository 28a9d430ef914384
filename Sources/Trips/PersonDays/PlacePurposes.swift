import Foundation
import MobilityCore

/// Home, work and other places, and the purposes of trips between them.
///
/// Each device's locations are labelled `home` and `work` by one of trackintel's two methods
/// (`location_identifier`, after Chen & Poorthuis 2021 and Efstathiades et al. 2015), summing
/// staypoint durations as trackintel does:
///
/// - **OSNA** (the default): weekday staypoints only, each counted in the window of its middle
///   instant in local time: rest 02–08 h (weight 0.739), work 08–19 h (1), leisure 19–02 h
///   (0.358). Home is the location with the most rest + leisure time, work the one with the
///   most work time (the second most when that is home).
/// - **FREQ**: home is the location with the most staypoint time, work the second.
///
/// OSNA is the default because it reads the clock: a person whose nights are short or whose
/// phone is off at night keeps home where they sleep, and a place visited on weekdays during
/// working hours is work, where FREQ takes whatever place comes second (a weekend house, a
/// partner's flat). trackintel's default is FREQ (with its pre-filter, which needs 10
/// locations per user); the FREQ labels here are its labels without the pre-filter, as
/// `scripts/peers/tests/test_trackintel_purposes.py` checks.
///
/// A staypoint in a geofence of kind `home` or `work` takes that label (`geofence`), and the
/// method then labels only what no geofence named. Locations no one labelled are `other`.
public enum PlacePurposes {
    public enum Method: String, Hashable, Sendable, Codable, CaseIterable {
        case osna, freq
    }

    /// A location's label for its device: purpose, how it was found, and its score (the share
    /// of the device's time, weighted for OSNA, that the winning location holds; 1 for a geofence).
    public struct Label: Hashable, Sendable {
        public var purpose: String
        public var method: String
        public var score: Double
    }

    /// The OSNA windows' weights (Efstathiades et al. 2015, as trackintel 1.4 uses them).
    static let restWeight = 0.739, leisureWeight = 0.358

    /// Sets `purpose` on every staypoint of `result` (home, work or other) and, for locations of
    /// one device (`LocationParameters.Scope.device`), the location's label. A device's places
    /// are always its own clusters: its locations with the device scope; with the data-set scope,
    /// its staypoints clustered apart at trackintel's defaults (100 m, one staypoint), so a
    /// person's home does not depend on who else was recorded, nor on a later data-set pass of
    /// `pipeline locations` (which leaves purposes as they are).
    public static func label(
        _ result: inout TripAnalysis.Result, geofenceKinds: [String: String], calendars: LocalCalendars, method: Method,
        locations parameters: LocationParameters = LocationParameters()
    ) {
        for index in result.devices.indices {
            var device = result.devices[index]
            let ownLocations = parameters.scope == .device
            if !ownLocations {
                var byDevice = LocationParameters()
                byDevice.scope = .device
                _ = LocationClusterer(parameters: byDevice).cluster(&device.staypoints)
            }
            let labels = labels(device, geofenceKinds: geofenceKinds, calendar: calendars.device(device.device), method: method)
            for s in device.staypoints.indices {
                let staypoint = device.staypoints[s]
                let byGeofence = staypoint.geofence.flatMap { geofenceKinds[$0] }.flatMap { ["home", "work"].contains($0) ? $0 : nil }
                result.devices[index].staypoints[s].purpose = byGeofence ?? staypoint.location.flatMap { labels[$0]?.purpose } ?? "other"
            }
            if ownLocations {
                for (location, label) in labels where result.locations[location].device == device.device {
                    result.locations[location].purpose = label
                }
            }
        }
    }

    /// The device's labels by location index.
    static func labels(_ device: DeviceTrips, geofenceKinds: [String: String], calendar: CalendarKeys, method: Method) -> [Int: Label] {
        var labels: [Int: Label] = [:]
        // Geofences first: a location holding a staypoint in a home (work) geofence is home (work).
        for purpose in ["home", "work"] {
            let named = device.staypoints.filter { $0.geofence.flatMap { geofenceKinds[$0] } == purpose }.compactMap(\.location)
            if let location = Dictionary(grouping: named, by: { $0 }).max(by: { ($0.value.count, $1.key) < ($1.value.count, $0.key) })?.key,
                labels[location] == nil
            {
                labels[location] = Label(purpose: purpose, method: "geofence", score: 1)
            }
        }
        let wanted = ["home", "work"].filter { purpose in !labels.values.contains { $0.purpose == purpose } }
        guard !wanted.isEmpty else { return labels }
        let taken = Set(labels.keys)
        switch method {
        case .freq:
            var seconds: [Int: Double] = [:]
            for stay in device.staypoints { if let location = stay.location { seconds[location, default: 0] += stay.durationSeconds } }
            let total = seconds.values.reduce(0, +)
            // Longest first; ties by location order, as a stable sort over trackintel's groups would give.
            let ranked = seconds.filter { !taken.contains($0.key) }.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
            for (purpose, entry) in zip(wanted, ranked) {
                labels[entry.key] = Label(purpose: purpose, method: "freq", score: total > 0 ? entry.value / total : 0)
            }
        case .osna:
            var home: [Int: Double] = [:], work: [Int: Double] = [:]
            for stay in device.staypoints {
                guard let location = stay.location, !taken.contains(location) else { continue }
                let middle = stay.startSeconds + stay.durationSeconds / 2
                guard calendar.weekday(middle) < 5 else { continue } // weekends are not counted
                let hour = calendar.hour(middle)
                if (2..<8).contains(hour) {
                    home[location, default: 0] += stay.durationSeconds * restWeight
                } else if (8..<19).contains(hour) {
                    work[location, default: 0] += stay.durationSeconds
                } else {
                    home[location, default: 0] += stay.durationSeconds * leisureWeight
                }
            }
            func ranked(_ scores: [Int: Double]) -> [(key: Int, value: Double)] {
                scores.filter { $0.value > 0 }.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
            }
            let homeTotal = home.values.reduce(0, +), workTotal = work.values.reduce(0, +)
            var homeLocation: Int?
            if wanted.contains("home"), let best = ranked(home).first {
                labels[best.key] = Label(purpose: "home", method: "osna", score: best.value / homeTotal)
                homeLocation = best.key
            }
            if wanted.contains("work"), let best = ranked(work).first(where: { $0.key != homeLocation && labels[$0.key] == nil }) {
                labels[best.key] = Label(purpose: "work", method: "osna", score: best.value / workTotal)
            }
        }
        return labels
    }

    /// A trip's origin and destination purposes (its end staypoints') and its purpose.
    /// Sets the purpose a person said (`Correction.purpose`) on each of their staypoints more than
    /// half under one: trips' purposes follow (`ends`). Returns how many staypoints it changed.
    @discardableResult
    public static func correct(_ result: inout TripAnalysis.Result, corrections: [Correction], persons: [String: String]) -> Int {
        let purposes = corrections.filter { $0.purpose != nil }
        guard !purposes.isEmpty else { return 0 }
        var changed = 0
        for d in result.devices.indices {
            let device = result.devices[d].device
            let mine = purposes.filter { $0.covers(device: device, person: persons[device] ?? device) }
            for s in result.devices[d].staypoints.indices where !mine.isEmpty {
                let stay = result.devices[d].staypoints[s]
                guard let correction = Correction.best(mine, start: stay.startSeconds, end: stay.endSeconds) else { continue }
                result.devices[d].staypoints[s].purpose = correction.purpose
                changed += 1
            }
        }
        return changed
    }

    public static func ends(of trip: Trip, in device: DeviceTrips) -> (origin: String?, destination: String?, trip: String?) {
        let origin = trip.originStaypoint.flatMap { device.staypoints[$0].purpose }
        let destination = trip.destinationStaypoint.flatMap { device.staypoints[$0].purpose }
        return (origin, destination, tripPurpose(origin: origin, destination: destination))
    }

    /// A trip's purpose from its ends' places: home-based work (`HBW`: home and work, either
    /// way), home-based other (`HBO`: home and anything but work), non-home-based (`NHB`), the
    /// split of the classic four-step model (e.g. the UK's TAG unit M2, NCHRP Report 716 §4.4).
    /// Nil when an end is unknown (a trip from or to a gap).
    public static func tripPurpose(origin: String?, destination: String?) -> String? {
        guard let origin, let destination else { return nil }
        let ends = Set([origin, destination])
        if ends.contains("home") { return ends.contains("work") ? "HBW" : "HBO" }
        return "NHB"
    }
}
