import Foundation
import MobilityCore

/// Which time zone a device's local hours, weekdays and dates are in, decided in this order:
///
/// 1. the manifest's `timezone` for the device's files (`manifest`);
/// 2. the configuration's zone, `calendar.time_zone` or `--time-zone` (`configuration`), or its
///    fixed offset, `calendar.utc_offset_hours` or `--utc-offset-hours` (`utc_offset`);
/// 3. where its fixes are (`fixes`): the zone of the nearest zone city (`ZoneLookup`) to a fix
///    every `sampleSeconds` or `sampleMeters`, whichever comes first; a device seen in another
///    zone at two such fixes in a row is in it from the first of them on (a traveller's days
///    follow the clock where they are);
/// 4. else (no fix, nothing given) the data set's calendar (`none`).
///
/// trackintel keeps times in the zone they were given in and leaves the choice to the user;
/// e-mission and MovingPandas likewise. We decide per device because a panel's phones cross
/// daylight saving and, now and then, a border.
public enum DeviceZone {
    /// How often a device's fixes are looked up, seconds, and how far it may move between
    /// lookups, metres: a border crossing is dated within an hour, a flight at the first fix after it.
    public static let sampleSeconds = 3600.0, sampleMeters = 50_000.0

    /// The device's zone. `manifest` are the zones its files' manifest rows name (the first is
    /// taken; the caller warns of two); `configured` the configuration's calendar and its source.
    public static func decide(
        track: DeviceTrack?, manifest: [String], configured: (calendar: CalendarKeys, source: String)?, dataset: CalendarKeys
    ) -> LocalCalendars.Zone {
        decide(sampled: track.map(fromFixes) ?? nil, manifest: manifest, configured: configured, dataset: dataset)
    }

    /// The same with the zones along the device's fixes already sampled (`Sampler.zone`, nil without fixes).
    public static func decide(
        sampled: @autoclosure () -> LocalCalendars.Zone?, manifest: [String], configured: (calendar: CalendarKeys, source: String)?,
        dataset: CalendarKeys
    ) -> LocalCalendars.Zone {
        if let zone = manifest.first, let calendar = CalendarKeys(zone: zone) {
            return LocalCalendars.Zone(calendar: calendar, source: "manifest")
        }
        if let configured { return LocalCalendars.Zone(calendar: configured.calendar, source: configured.source) }
        if let fromFixes = sampled() { return fromFixes }
        return LocalCalendars.Zone(calendar: dataset, source: "none")
    }

    /// The zones along the device's fixes; nil without fixes.
    public static func fromFixes(_ track: DeviceTrack) -> LocalCalendars.Zone? {
        var sampler = Sampler()
        sampler.add(track.points.array[...])
        return sampler.zone
    }

    /// The samples `fromFixes` takes, from fixes handed over in pieces in time order (the same
    /// zone as from the whole track): a fix an hour, or 50 km from the last sample.
    public struct Sampler: Sendable {
        private var samples: [(seconds: Double, zone: String)] = []
        private var farthest = 0.0
        private var last: TrackPoint?

        public init() {}

        public mutating func add(_ points: ArraySlice<TrackPoint>) {
            for point in points {
                if let last,
                    point.timeSeconds - last.timeSeconds < DeviceZone.sampleSeconds
                        && Geodesy.equirectangularMeters(
                            latitude1: last.latitudeDegrees, longitude1: last.longitudeDegrees, latitude2: point.latitudeDegrees,
                            longitude2: point.longitudeDegrees) < DeviceZone.sampleMeters
                {
                    continue
                }
                let nearest = ZoneLookup.nearest(latitude: point.latitudeDegrees, longitude: point.longitudeDegrees)
                farthest = max(farthest, nearest.meters)
                samples.append((point.timeSeconds, nearest.zone))
                last = point
            }
        }

        /// The zones along the fixes added; nil without fixes.
        public var zone: LocalCalendars.Zone? {
            guard !samples.isEmpty else { return nil }
            // A zone holds from the first of two samples in a row that see it (or the last sample).
            var timeline: [(startSeconds: Double, zone: String)] = [(-.infinity, samples[0].zone)]
            for index in samples.indices.dropFirst() where samples[index].zone != timeline.last!.zone {
                let confirmed = index + 1 == samples.count || samples[index + 1].zone == samples[index].zone
                if confirmed { timeline.append((samples[index].seconds, samples[index].zone)) }
            }
            let calendar = CalendarKeys(
                timeline: timeline.compactMap { change in CalendarKeys(zone: change.zone).map { (change.startSeconds, $0) } })
            return LocalCalendars.Zone(calendar: calendar, source: "fixes", guessMeters: farthest)
        }
    }

    /// The calendars a trip stage stored (`device_zones`: each zone's device, start, nil for the
    /// first, name, source and guess distance), with each person's device.
    public static func calendars(
        stored: [(device: String, startSeconds: Double?, zone: String, source: String, guessMeters: Double?)], persons: [String: String],
        dataset: CalendarKeys
    ) -> LocalCalendars {
        var rows: [String: [(device: String, startSeconds: Double?, zone: String, source: String, guessMeters: Double?)]] = [:]
        for row in stored { rows[row.device, default: []].append(row) }
        let zones = rows.compactMapValues { rows -> LocalCalendars.Zone? in
            let timeline = rows.compactMap { row in CalendarKeys(named: row.zone).map { (row.startSeconds ?? -.infinity, $0) } }
            guard !timeline.isEmpty else { return nil }
            return LocalCalendars.Zone(calendar: CalendarKeys(timeline: timeline), source: rows[0].source, guessMeters: rows[0].guessMeters)
        }
        return LocalCalendars(dataset, devices: zones, personDevices: personDevices(zones: zones, persons: persons))
    }

    /// The device whose zone each person's days are counted in: of the person's devices (in
    /// name order), the first whose zone was named (manifest or configuration), else the first
    /// with fixes, else the first.
    public static func personDevices(zones: [String: LocalCalendars.Zone], persons: [String: String]) -> [String: String] {
        var devices: [String: [String]] = [:]
        for (device, person) in persons { devices[person, default: []].append(device) }
        for device in zones.keys where persons[device] == nil { devices[device, default: []].append(device) }
        return devices.mapValues { names in
            let sorted = names.sorted()
            let rank = { (device: String) -> Int in
                switch zones[device]?.source {
                case "manifest", "configuration", "utc_offset": 0
                case "fixes": 1
                default: 2
                }
            }
            return sorted.min { rank($0) < rank($1) }!
        }
    }
}

extension DeviceZone {
    /// Devices by the source of their zone, the zones used, and what a run warns of: a device
    /// whose manifest rows name two zones, zones guessed far from every zone city, devices with
    /// no zone at all.
    public static func tally(_ zones: [String: LocalCalendars.Zone], manifest: [String: [String]]) -> (
        sources: [String: Int], zones: [String], warnings: [String]
    ) {
        var sources: [String: Int] = [:]
        for zone in zones.values { sources[zone.source, default: 0] += 1 }
        var warnings: [String] = []
        for (device, named) in manifest.sorted(by: { $0.key < $1.key }) where named.count > 1 {
            warnings.append(
                "zones: the manifest gives device \(device) the zones \(named.joined(separator: " and ")); \(named[0]) was used")
        }
        let far = zones.filter { ($0.value.guessMeters ?? 0) > ZoneLookup.confidentMeters }.keys.sorted()
        if !far.isEmpty {
            warnings.append(
                "zones: \(far.count) devices (\(far.prefix(5).joined(separator: ", "))\(far.count > 5 ? ", …" : "")) have fixes over "
                    + "\(Int(ZoneLookup.confidentMeters / 1000)) km from the nearest zone city, so their zone (\(Set(far.flatMap { zones[$0]!.calendar.zones }).sorted().joined(separator: ", "))) "
                    + "is a guess that may be the neighbour's; give the zone in the manifest (timezone) or with --time-zone")
        }
        let none = zones.filter { $0.value.source == "none" }.keys.sorted()
        if !none.isEmpty {
            warnings.append(
                "zones: \(none.count) devices (\(none.prefix(5).joined(separator: ", "))\(none.count > 5 ? ", …" : "")) have no fix and no "
                    + "zone given, so their local times are \(zones[none[0]]!.calendar.name); give the zone in the manifest (timezone) or with --time-zone"
            )
        }
        return (sources, Set(zones.values.flatMap(\.calendar.zones)).sorted(), warnings)
    }
}
