import Foundation

/// Whose local time is which: each device's calendar (its zone, with where the zone came
/// from), each person's (that of one of their devices), and the data set's, for what belongs
/// to no one device (release windows, the report's dates).
public struct LocalCalendars: Hashable, Sendable {
    /// A device's local time and where it came from.
    public struct Zone: Hashable, Sendable {
        public var calendar: CalendarKeys
        /// `manifest` (its `timezone` column), `configuration` (`calendar.time_zone` or
        /// `--time-zone`), `utc_offset` (`calendar.utc_offset_hours`, a fixed offset), `fixes`
        /// (the zones whose borders hold its fixes, `ZoneBoundaries`), or `none` (no fix and
        /// nothing given: the data set's calendar).
        public var source: String

        public init(calendar: CalendarKeys, source: String) { (self.calendar, self.source) = (calendar, source) }
    }

    /// The data set's calendar: what was configured, else the zone most devices are in.
    public var dataset: CalendarKeys
    public var devices: [String: Zone]
    /// Each person's device whose zone their days are counted in.
    public var personDevices: [String: String]

    public init(_ dataset: CalendarKeys = CalendarKeys(), devices: [String: Zone] = [:], personDevices: [String: String] = [:]) {
        (self.dataset, self.devices, self.personDevices) = (dataset, devices, personDevices)
    }

    public func device(_ name: String) -> CalendarKeys { devices[name]?.calendar ?? dataset }

    public func person(_ name: String) -> CalendarKeys { personDevices[name].map(device) ?? dataset }

    /// What an output says of its local times: the one zone, or how many there are.
    public var name: String {
        let zones = Set(devices.values.flatMap(\.calendar.zones))
        if zones.isEmpty { return dataset.name }
        if zones.count == 1 { return zones.first! }
        return "each device's own zone (\(zones.sorted().joined(separator: ", ")))"
    }
}

extension CalendarKeys {
    /// The calendar an output's zone names: an IANA zone, `UTC` or `UTC±HH:MM`; nil for neither.
    public init?(named name: String) {
        if name == "UTC" {
            self.init()
            return
        }
        if name.hasPrefix("UTC"), name.count == 9, let hours = Double(name.dropFirst(4).prefix(2)),
            let minutes = Double(name.suffix(2)), name.dropFirst(3).first == "+" || name.dropFirst(3).first == "-"
        {
            self.init(utcOffsetSeconds: (name.dropFirst(3).first == "-" ? -1 : 1) * (hours * 3600 + minutes * 60))
            return
        }
        self.init(zone: name)
    }

    /// Where each zone begins: the first from the beginning of time (`-infinity`), as
    /// `init(timeline:)` takes them back (with `init(named:)`).
    public var zoneChanges: [(startSeconds: Double, zone: String)] {
        var changes: [(startSeconds: Double, zone: String)] = []
        for piece in pieces where changes.last?.zone != piece.zone { changes.append((piece.startSeconds, piece.zone)) }
        return changes
    }
}
