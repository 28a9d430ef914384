import MobilityCore

/// The name a missing mode goes by in tables.
public let unknownModeName = "unknown"

func modeName(_ mode: Mode?) -> String { mode?.rawValue ?? unknownModeName }

/// The modes present in a result, in `Mode` order, with "unknown" last when a leg had none.
public func modeNames(in devices: [DeviceTrips]) -> [String] {
    let legs = devices.flatMap(\.triplegs)
    let known = Set(legs.compactMap(\.mode)).sorted().map(\.rawValue)
    return known + (legs.contains { $0.mode == nil } ? [unknownModeName] : [])
}

/// `Mode` order, "unknown" last.
public func modeRank(_ name: String) -> Int {
    Mode(rawValue: name).flatMap { Mode.allCases.firstIndex(of: $0) } ?? Mode.allCases.count
}

/// What the OD table needs of one (time band, origin, destination) of geofence ids: its trips'
/// count, distinct devices, durations and distances, and trips per main mode. Each trip counts
/// in its pair's `all_day` group and in the group of its departure's band (`TimeBands`). A single run
/// reduces its trips to these (`ODGroup.groups`); a distributed run's parts write the same
/// groups (`partialTable`), its Spark job merges them as their columns declare, and `ODMatrix`
/// applies the one formula to either.
public struct ODGroup: Sendable, Equatable {
    /// `all_day` or a band's name.
    public var band: String
    public var origin: String?
    public var destination: String?
    public var trips: Int
    public var devices: Int
    /// Distinct persons who made the pair's trips (a device without a named person is one).
    public var persons: Int
    public var durationsSeconds: [Double]
    public var distancesMeters: [Double]
    /// Trips per main mode name ("unknown" for none).
    public var mainModes: [String: Int]
    /// Distinct persons per main mode name: a mode's share of the row is a count of its own,
    /// which k applies to. Empty for groups a version before it reduced (every share is then
    /// taken as made by fewer than k).
    public var modePersons: [String: Int]

    public init(
        band: String = TimeBands.allDay, origin: String?, destination: String?, trips: Int, devices: Int, persons: Int,
        durationsSeconds: [Double], distancesMeters: [Double], mainModes: [String: Int], modePersons: [String: Int] = [:]
    ) {
        self.band = band
        (self.origin, self.destination, self.trips, self.devices, self.persons) = (origin, destination, trips, devices, persons)
        (self.durationsSeconds, self.distancesMeters, self.mainModes) = (durationsSeconds, distancesMeters, mainModes)
        self.modePersons = modePersons
    }

    /// The groups of `devices`' trips; `persons` names each device's person (the device itself
    /// where it names none).
    public static func groups(
        _ devices: [DeviceTrips], persons: [String: String] = [:], calendars: LocalCalendars = LocalCalendars(),
        bands: TimeBands = TimeBands()
    ) -> [ODGroup] {
        groups(members(devices, persons: persons, calendars: calendars, bands: bands))
    }

    static func members(_ devices: [DeviceTrips], persons: [String: String], calendars: LocalCalendars, bands: TimeBands) -> [Member] {
        devices.flatMap { device in
            let person = persons[device.device] ?? device.device
            let calendar = calendars.person(person)
            return device.trips.map { trip in
                Member(
                    device: device.device, person: person, origin: trip.originGeofence, destination: trip.destinationGeofence,
                    durationSeconds: trip.durationSeconds, distanceMeters: trip.distanceMeters, mainMode: modeName(trip.mainMode),
                    band: bands.name(startSeconds: trip.startSeconds, calendar: calendar))
            }
        }
    }

    /// A trip as a group counts it, with the band of its departure on its person's clock.
    public struct Member: Sendable {
        public var device: String, person: String, origin: String?, destination: String?
        public var durationSeconds: Double, distanceMeters: Double, mainMode: String
        public var band: String
        public init(
            device: String, person: String, origin: String?, destination: String?, durationSeconds: Double, distanceMeters: Double,
            mainMode: String, band: String
        ) {
            (self.device, self.person, self.origin, self.destination) = (device, person, origin, destination)
            (self.durationSeconds, self.distanceMeters, self.mainMode, self.band) = (durationSeconds, distanceMeters, mainMode, band)
        }
    }

    /// The groups of `members` by origin and destination.
    public static func groups(_ members: [Member]) -> [ODGroup] {
        grouped(members).map { key, members in of(members, band: key[0]!, origin: key[1], destination: key[2]) }
    }

    /// The one group of `members`, whatever their own ends and bands.
    public static func of(_ members: [Member], band: String = TimeBands.allDay, origin: String?, destination: String?) -> ODGroup {
        ODGroup(
            band: band, origin: origin, destination: destination, trips: members.count, devices: Set(members.map(\.device)).count,
            persons: Set(members.map(\.person)).count,
            durationsSeconds: members.map(\.durationSeconds), distancesMeters: members.map(\.distanceMeters),
            mainModes: Dictionary(members.map { ($0.mainMode, 1) }, uniquingKeysWith: +),
            modePersons: Dictionary(grouping: members, by: \.mainMode).mapValues { Set($0.map(\.person)).count })
    }

    /// Keyed (band, origin, destination): each member in its pair's `all_day` group and its band's.
    static func grouped(_ members: [Member]) -> [[String?]: [Member]] {
        var groups: [[String?]: [Member]] = [:]
        for member in members {
            groups[[TimeBands.allDay, member.origin, member.destination], default: []].append(member)
            groups[[member.band, member.origin, member.destination], default: []].append(member)
        }
        return groups
    }

    /// A distributed run's part's groups (`od_groups`), before the merge: the same groups as
    /// `groups`, with each one's persons by name (a person may have devices in two parts) and
    /// its trips' main modes in trip order. The reduced table's columns are these, merged.
    public static func partialTable(
        _ devices: [DeviceTrips], persons: [String: String] = [:], calendars: LocalCalendars = LocalCalendars(),
        bands: TimeBands = TimeBands()
    ) -> PartialTable {
        var table = partialSchema
        for (key, members) in grouped(members(devices, persons: persons, calendars: calendars, bands: bands)) {
            table.append([
                .text(key[0]), .text(key[1]), .text(key[2]), .integer(members.count), .integer(Set(members.map(\.device)).count),
                .names(Set(members.map(\.person))), .numbers(members.map(\.durationSeconds)), .numbers(members.map(\.distanceMeters)),
                .texts(members.map(\.mainMode))
            ])
        }
        return table
    }

    /// A distributed run's part's persons per main mode of each group (`od_mode_groups`): the
    /// group's trips of each mode and their persons by name, which the merge counts.
    public static func modePartialTable(
        _ devices: [DeviceTrips], persons: [String: String] = [:], calendars: LocalCalendars = LocalCalendars(),
        bands: TimeBands = TimeBands()
    ) -> PartialTable {
        var table = modePartialSchema
        for (key, members) in grouped(members(devices, persons: persons, calendars: calendars, bands: bands)) {
            for (mode, ofMode) in Dictionary(grouping: members, by: \.mainMode) {
                table.append([
                    .text(key[0]), .text(key[1]), .text(key[2]), .text(mode), .integer(ofMode.count), .names(Set(ofMode.map(\.person)))
                ])
            }
        }
        return table
    }

    /// `od_mode_groups` without rows.
    public static let modePartialSchema = PartialTable(
        name: "od_mode_groups",
        columns: [
            .init("time_band", .key), .init("origin_geofence_id", .key), .init("destination_geofence_id", .key), .init("main_mode", .key),
            .init("trips", .sum), .init("persons", .distinctCount)
        ])

    /// `od_groups` without rows: its columns and how each merges.
    public static let partialSchema = PartialTable(
        name: "od_groups",
        columns: [
            .init("time_band", .key), .init("origin_geofence_id", .key), .init("destination_geofence_id", .key), .init("trips", .sum),
            .init("devices", .sum),
            .init("persons", .distinctCount), .init("durations_s", .sortedNumbers), .init("distances_m", .sortedNumbers),
            .init("main_modes", .joined)
        ])
}

/// The modal split's reduction: trips, leg distance and leg duration per (dimension, key,
/// mode), the legs added in device order, then each device's time order (the order of their
/// data-set ids, which a distributed run's Spark job reproduces), and the distinct persons
/// who made them.
public struct ModalTotal: Sendable, Equatable {
    /// "all", "hour", "weekday", "time_band" or "trip_purpose".
    public var dimension: String
    public var key: String
    public var mode: String
    public var trips: Int
    public var distanceMeters: Double
    public var durationSeconds: Double
    /// Distinct persons with a trip or a leg in the row (the published `persons`).
    public var persons: Int
    /// Distinct persons with a trip in the row, who made its `trips`, and with a leg, who made
    /// its distance and time: each measure is published only when k of its own made it (a
    /// row's trips by one person must not pass k on others' legs).
    public var tripPersons: Int, legPersons: Int
    /// Each person's part of `distanceMeters` and of `durationSeconds`, by person (their legs
    /// added in the order the totals add them): what the dominance rule weighs (`DominanceRule`).
    /// Empty for a table of counts alone.
    public var distanceByPerson: [String: Double], durationByPerson: [String: Double]

    /// `tripPersons` and `legPersons` default to `persons` (a table of one measure).
    public init(
        dimension: String, key: String, mode: String, trips: Int, distanceMeters: Double, durationSeconds: Double, persons: Int,
        tripPersons: Int? = nil, legPersons: Int? = nil, distanceByPerson: [String: Double] = [:],
        durationByPerson: [String: Double] = [:]
    ) {
        (self.dimension, self.key, self.mode, self.trips, self.distanceMeters, self.durationSeconds, self.persons) =
            (dimension, key, mode, trips, distanceMeters, durationSeconds, persons)
        (self.tripPersons, self.legPersons) = (tripPersons ?? persons, legPersons ?? persons)
        (self.distanceByPerson, self.durationByPerson) = (distanceByPerson, durationByPerson)
    }

    /// The (dimension, key) pairs a trip or leg starting at `seconds` counts in: all, its local
    /// hour (00–23), its local weekday and its time band (`TimeBands`), in the calendar of the
    /// person who made it, and its trip's purpose (HBW, HBO, NHB, or `unknown`:
    /// `PlacePurposes.tripPurpose`).
    public static func keys(startSeconds seconds: Double, calendar: CalendarKeys, purpose: String? = nil, bands: TimeBands) -> [[String]] {
        [
            ["all", "all"], ["hour", String(format: "%02d", calendar.hour(seconds))],
            ["weekday", CalendarKeys.weekdayNames[calendar.weekday(seconds)]],
            ["time_band", bands.name(startSeconds: seconds, calendar: calendar)], ["trip_purpose", purpose ?? "unknown"]
        ]
    }

    /// One trip or leg as the modal split counts it: who made it, when it started, its mode
    /// name, and (for a leg) its distance and duration.
    public struct Entry: Sendable {
        public var person: String, startSeconds: Double, mode: String, distanceMeters: Double, durationSeconds: Double
        /// The trip's purpose (a leg's: its trip's); nil when unknown.
        public var purpose: String?
        public init(
            person: String, startSeconds: Double, mode: String, distanceMeters: Double = 0, durationSeconds: Double = 0,
            purpose: String? = nil
        ) {
            (self.person, self.startSeconds, self.mode, self.distanceMeters, self.durationSeconds) = (
                person, startSeconds, mode, distanceMeters, durationSeconds
            )
            self.purpose = purpose
        }
    }

    /// `persons` names each device's person (the device itself where it names none).
    public static func totals(
        _ devices: [DeviceTrips], persons: [String: String] = [:], calendars: LocalCalendars = LocalCalendars(),
        bands: TimeBands = TimeBands()
    ) -> [ModalTotal] {
        let (trips, legs) = entries(devices, persons: persons)
        return totals(trips: trips, legs: legs, calendars: calendars, bands: bands)
    }

    static func entries(_ devices: [DeviceTrips], persons: [String: String]) -> (trips: [Entry], legs: [Entry]) {
        let trips = devices.flatMap { device in
            device.trips.map {
                Entry(
                    person: persons[device.device] ?? device.device, startSeconds: $0.startSeconds, mode: modeName($0.mainMode),
                    purpose: PlacePurposes.ends(of: $0, in: device).trip)
            }
        }
        let legs = devices.flatMap { device in
            let purposes = device.trips.map { PlacePurposes.ends(of: $0, in: device).trip }
            return device.triplegs.map {
                Entry(
                    person: persons[device.device] ?? device.device, startSeconds: $0.startSeconds, mode: modeName($0.mode),
                    distanceMeters: $0.distanceMeters, durationSeconds: $0.durationSeconds, purpose: $0.trip.flatMap { purposes[$0] })
            }
        }
        return (trips, legs)
    }

    /// Calls `add` with each row key (dimension, key, mode) of every trip, then of every leg, in
    /// the order given: the one grouping of `totals` and `partialTable`.
    static func forEachRow(
        trips: [Entry], legs: [Entry], calendars: LocalCalendars, bands: TimeBands, _ add: ([String], Entry, _ isTrip: Bool) -> Void
    ) {
        var calendar: (person: String, keys: CalendarKeys)?
        for (entries, isTrip) in [(trips, true), (legs, false)] {
            for entry in entries {
                if calendar?.person != entry.person { calendar = (entry.person, calendars.person(entry.person)) }
                for key in keys(startSeconds: entry.startSeconds, calendar: calendar!.keys, purpose: entry.purpose, bands: bands) {
                    add(key + [entry.mode], entry, isTrip)
                }
            }
        }
    }

    /// The totals of `trips` (counted) and `legs` (distance and duration added in the order
    /// given: device order, then each device's time order, as the store's ids run).
    public static func totals(
        trips: [Entry], legs: [Entry], calendars: LocalCalendars = LocalCalendars(), bands: TimeBands = TimeBands()
    ) -> [ModalTotal] {
        var totals: [[String]: ModalTotal] = [:], people: [[String]: (trips: Set<String>, legs: Set<String>)] = [:]
        forEachRow(trips: trips, legs: legs, calendars: calendars, bands: bands) { row, entry, isTrip in
            var total =
                totals[row]
                ?? ModalTotal(dimension: row[0], key: row[1], mode: row[2], trips: 0, distanceMeters: 0, durationSeconds: 0, persons: 0)
            if isTrip {
                total.trips += 1
            } else {
                total.distanceMeters += entry.distanceMeters
                total.durationSeconds += entry.durationSeconds
                total.distanceByPerson[entry.person, default: 0] += entry.distanceMeters
                total.durationByPerson[entry.person, default: 0] += entry.durationSeconds
            }
            totals[row] = total
            if isTrip {
                people[row, default: ([], [])].trips.insert(entry.person)
            } else {
                people[row, default: ([], [])].legs.insert(entry.person)
            }
        }
        return totals.map { key, total in
            var total = total
            let (tripPersons, legPersons) = people[key]!
            (total.persons, total.tripPersons, total.legPersons) = (
                tripPersons.union(legPersons).count, tripPersons.count, legPersons.count
            )
            return total
        }
    }

    /// A distributed run's part's totals (`modal_totals`), before the merge: the rows of
    /// `totals`, with each row's persons by name and its legs' distances and durations as
    /// lists in data-set order, which the reducer adds one at a time over the parts in order,
    /// as `totals` adds them.
    public static func partialTable(
        _ devices: [DeviceTrips], persons: [String: String] = [:], calendars: LocalCalendars = LocalCalendars(),
        bands: TimeBands = TimeBands()
    ) -> PartialTable {
        let (trips, legs) = entries(devices, persons: persons)
        return partialTable(trips: trips, legs: legs, calendars: calendars, bands: bands)
    }

    /// The partial rows of `trips` and `legs` (`totals(trips:legs:calendar:)`'s rows).
    public static func partialTable(
        trips: [Entry], legs: [Entry], calendars: LocalCalendars = LocalCalendars(), bands: TimeBands = TimeBands()
    ) -> PartialTable {
        struct Found {
            var trips = 0, distances: [Double] = [], durations: [Double] = [], tripPersons: Set<String> = [], legPersons: Set<String> = []
            var distanceParts: [String: [Double]] = [:], durationParts: [String: [Double]] = [:]
        }
        var rows: [[String]: Found] = [:]
        forEachRow(trips: trips, legs: legs, calendars: calendars, bands: bands) { row, entry, isTrip in
            var found = rows[row] ?? Found()
            if isTrip {
                found.trips += 1
                found.tripPersons.insert(entry.person)
            } else {
                found.distances.append(entry.distanceMeters)
                found.durations.append(entry.durationSeconds)
                found.legPersons.insert(entry.person)
                found.distanceParts[entry.person, default: []].append(entry.distanceMeters)
                found.durationParts[entry.person, default: []].append(entry.durationSeconds)
            }
            rows[row] = found
        }
        var table = partialSchema
        for (row, found) in rows {
            table.append(
                row.map { .text($0) } + [
                    .integer(found.trips), .numbers(found.distances), .numbers(found.durations),
                    .names(found.tripPersons.union(found.legPersons)), .names(found.tripPersons), .names(found.legPersons),
                    .personNumbers(found.distanceParts), .personNumbers(found.durationParts)
                ])
        }
        return table
    }

    /// `modal_totals` without rows: its columns and how each merges.
    public static let partialSchema = PartialTable(
        name: "modal_totals",
        columns: [
            .init("dimension", .key), .init("dimension_value", .key), .init("travel_mode", .key), .init("trips", .sum),
            .init("distance_m", .orderedSum), .init("duration_s", .orderedSum), .init("persons", .distinctCount),
            .init("trip_persons", .distinctCount), .init("leg_persons", .distinctCount),
            .init("distance_m_by_person", .personSums), .init("duration_s_by_person", .personSums)
        ])
}

/// What each device did, as the Compiègne app showed its users: time per mode, hours in
/// motion, trips, distance and weekly averages per mode.
///
/// Weekly averages divide by the weeks observed, counted as days with at least one fix / 7,
/// so a device seen on 3 days has its totals scaled by 7/3.
public struct DeviceStatistics: Sendable {
    public struct Row: Sendable, Equatable {
        public var device: String
        public var fixes: Int
        public var firstSeconds: Double?
        public var lastSeconds: Double?
        public var daysObserved: Int
        public var staypoints: Int
        public var dwells: Int
        public var trips: Int
        public var distanceMeters: Double
        /// Time in legs of a mode other than still.
        public var hoursInMotion: Double
        public var secondsPerMode: [String: Double]
        public var distancePerMode: [String: Double]

        public var weeksObserved: Double { Double(daysObserved) / 7 }
    }

    public var rows: [Row]

    public init(_ devices: [DeviceTrips], calendars: LocalCalendars = LocalCalendars()) {
        rows = devices.map { device in
            var seconds: [String: Double] = [:], distance: [String: Double] = [:]
            var motion = 0.0
            for leg in device.triplegs {
                seconds[modeName(leg.mode), default: 0] += leg.durationSeconds
                distance[modeName(leg.mode), default: 0] += leg.distanceMeters
                if leg.mode != .still { motion += leg.durationSeconds }
            }
            let observed = device.observed
            return Row(
                device: device.device, fixes: observed.fixes, firstSeconds: observed.firstSeconds,
                lastSeconds: observed.lastSeconds, daysObserved: observed.daysObserved(calendars.device(device.device)),
                staypoints: device.staypoints.count, dwells: device.dwells.count, trips: device.trips.count,
                distanceMeters: device.triplegs.reduce(0) { $0 + $1.distanceMeters }, hoursInMotion: motion / 3600,
                secondsPerMode: seconds, distancePerMode: distance)
        }
    }
}
