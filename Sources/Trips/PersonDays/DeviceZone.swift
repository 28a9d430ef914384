import Foundation
import MobilityCore

/// Which time zone a device's local hours, weekdays and dates are in, decided in this order:
///
/// 1. the manifest's `timezone` for the device's files (`manifest`);
/// 2. the configuration's zone, `calendar.time_zone` or `--time-zone` (`configuration`), or its
///    fixed offset, `calendar.utc_offset_hours` or `--utc-offset-hours` (`utc_offset`);
/// 3. where its fixes are (`fixes`): the zone whose borders hold a fix (`ZoneBoundaries`), a fix
///    every `sampleSeconds` or `sampleMeters`, whichever comes first; a device seen in another
///    zone at two such fixes in a row has moved to it, and its days follow the clock where they
///    are: a day takes the zone of its first stay (`byFirstStays`), so a traveller's day is
///    never cut at the border;
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
        track: DeviceTrack?, boundaries: ZoneBoundaries?, manifest: [String], configured: (calendar: CalendarKeys, source: String)?,
        dataset: CalendarKeys
    ) -> LocalCalendars.Zone {
        decide(
            sampled: track.flatMap { track in boundaries.flatMap { fromFixes(track, boundaries: $0) } }, manifest: manifest,
            configured: configured,
            dataset: dataset)
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
    public static func fromFixes(_ track: DeviceTrack, boundaries: ZoneBoundaries) -> LocalCalendars.Zone? {
        var sampler = Sampler(boundaries: boundaries)
        sampler.add(track.points.array[...])
        return sampler.zone
    }

    /// The samples `fromFixes` takes, from fixes handed over in pieces in time order (the same
    /// zone as from the whole track): a fix an hour, or 50 km from the last sample. Without
    /// boundaries it samples nothing (the zone is given).
    public struct Sampler: Sendable {
        private let boundaries: ZoneBoundaries?
        private var samples: [(seconds: Double, zone: String)] = []
        private var last: TrackPoint?

        public init(boundaries: ZoneBoundaries?) { self.boundaries = boundaries }

        public mutating func add(_ points: ArraySlice<TrackPoint>) {
            guard let boundaries else { return }
            for point in points {
                if let last,
                    point.timeSeconds - last.timeSeconds < DeviceZone.sampleSeconds
                        && Geodesy.equirectangularMeters(
                            latitude1: last.latitudeDegrees, longitude1: last.longitudeDegrees, latitude2: point.latitudeDegrees,
                            longitude2: point.longitudeDegrees) < DeviceZone.sampleMeters
                {
                    continue
                }
                samples.append((point.timeSeconds, boundaries.zone(latitude: point.latitudeDegrees, longitude: point.longitudeDegrees)))
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
            return LocalCalendars.Zone(calendar: calendar, source: "fixes")
        }
    }

    /// A zone found along the fixes, its changes moved to day boundaries: each local day takes
    /// the zone of its first stay (a stay it begins in, or the first to begin in it), as a travel
    /// survey dates a traveller's day by where it began. A change of zone takes effect at the
    /// first midnight of the new zone after it, if the day from that midnight begins its first
    /// stay there; a day trip across a border and back changes nothing. Without stays, the zone
    /// at that midnight decides. `stays` are (start, end) seconds in time order.
    public static func byFirstStays(_ zone: LocalCalendars.Zone, stays: [(startSeconds: Double, endSeconds: Double)])
        -> LocalCalendars.Zone
    {
        let raw = zone.calendar
        let changes = raw.zoneChanges
        guard zone.source == "fixes", changes.count > 1 else { return zone }
        var timeline: [(startSeconds: Double, zone: String)] = [changes[0]]
        for change in changes.dropFirst() where change.zone != timeline.last!.zone {
            guard let calendar = CalendarKeys(zone: change.zone) else { continue }
            var midnight = calendar.dayStart(calendar.dayNumber(change.startSeconds))
            if midnight < change.startSeconds { midnight = calendar.dayStart(calendar.dayNumber(change.startSeconds) + 1) }
            guard midnight > timeline.last!.startSeconds else { continue }
            let first = stays.first { $0.endSeconds > midnight }
            let at = first.map { max($0.startSeconds, midnight) } ?? midnight
            if raw.zone(at: at) == change.zone { timeline.append((midnight, change.zone)) }
        }
        let calendar = CalendarKeys(
            timeline: timeline.compactMap { change in CalendarKeys(zone: change.zone).map { (change.startSeconds, $0) } })
        return LocalCalendars.Zone(calendar: calendar, source: zone.source)
    }

    /// The calendars a trip stage stored (`device_zones`: each zone's device, start, nil for the
    /// first, name and source), with each person's device.
    public static func calendars(
        stored: [(device: String, startSeconds: Double?, zone: String, source: String)], persons: [String: String],
        dataset: CalendarKeys
    ) -> LocalCalendars {
        var rows: [String: [(device: String, startSeconds: Double?, zone: String, source: String)]] = [:]
        for row in stored { rows[row.device, default: []].append(row) }
        let zones = rows.compactMapValues { rows -> LocalCalendars.Zone? in
            let timeline = rows.compactMap { row in CalendarKeys(named: row.zone).map { (row.startSeconds ?? -.infinity, $0) } }
            guard !timeline.isEmpty else { return nil }
            return LocalCalendars.Zone(calendar: CalendarKeys(timeline: timeline), source: rows[0].source)
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
    /// whose manifest rows name two zones, devices with no zone at all.
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
