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
func modeRank(_ name: String) -> Int {
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

    public init(
        band: String = TimeBands.allDay, origin: String?, destination: String?, trips: Int, devices: Int, persons: Int,
        durationsSeconds: [Double], distancesMeters: [Double], mainModes: [String: Int]
    ) {
        self.band = band
        (self.origin, self.destination, self.trips, self.devices, self.persons) = (origin, destination, trips, devices, persons)
        (self.durationsSeconds, self.distancesMeters, self.mainModes) = (durationsSeconds, distancesMeters, mainModes)
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
        grouped(members).map { key, members in
            ODGroup(
                band: key[0]!, origin: key[1], destination: key[2], trips: members.count, devices: Set(members.map(\.device)).count,
                persons: Set(members.map(\.person)).count,
                durationsSeconds: members.map(\.durationSeconds), distancesMeters: members.map(\.distanceMeters),
                mainModes: Dictionary(members.map { ($0.mainMode, 1) }, uniquingKeysWith: +))
        }
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

/// Origin–destination table over geofence zones: one row per (time band, origin, destination)
/// of geofence ids (nil where a trip's end lies in no geofence) that at least k distinct persons
/// made, `all_day` and each band of the departure; rows fewer made are suppressed and counted,
/// never published.
public struct ODMatrix: Sendable {
    public struct Row: Sendable, Equatable {
        /// `all_day` or a band's name.
        public var band: String
        public var origin: String?
        public var destination: String?
        public var trips: Int
        public var devices: Int
        public var persons: Int
        public var medianDurationSeconds: Double
        public var medianDistanceMeters: Double
        /// Share of the row's trips by main mode, keyed by mode name.
        public var modeShares: [String: Double]
    }

    public var rows: [Row]
    /// The k every row met: distinct persons per row.
    public var minimumPersons: Int
    /// Whole-day pairs, and their trips, made by fewer than `minimumPersons` persons: in no row.
    public var suppressedPairs = 0, suppressedTrips = 0
    /// Band rows under k, and band rows of k or more left out so the first cannot be subtracted.
    public var suppressedBandRows = 0, complementaryRows = 0

    public init(
        _ devices: [DeviceTrips], persons: [String: String] = [:], calendars: LocalCalendars = LocalCalendars(),
        bands: TimeBands = TimeBands(), minimumPersons: Int
    ) {
        self.init(
            groups: ODGroup.groups(devices, persons: persons, calendars: calendars, bands: bands), minimumPersons: minimumPersons,
            bands: bands)
    }

    /// Medians (type 7) of each published row's durations and distances, the share of each main
    /// mode (trips of the mode / trips); rows by band (`all_day`, then `bands`' order), then
    /// trips, then origin and destination. A pair's band rows add up to its `all_day` row, so a
    /// band row under k that would be the only one left out of its pair takes a second with it
    /// (`CellSuppression`, as `ZoneOD` does).
    public init(groups: [ODGroup], minimumPersons: Int, bands: TimeBands = TimeBands()) {
        self.minimumPersons = minimumPersons
        let order = Dictionary(uniqueKeysWithValues: ([TimeBands.allDay] + bands.names).enumerated().map { ($1, $0) })
        func rank(_ band: String) -> Int { order[band] ?? order.count }
        // One canonical order for the audit, so a run and Spark leave out the same rows.
        let sorted = groups.sorted {
            ($0.origin ?? "", $0.destination ?? "", rank($0.band), $0.band) < (
                $1.origin ?? "", $1.destination ?? "", rank($1.band), $1.band
            )
        }
        let cells = sorted.map {
            CellSuppression.Cell(publishable: true, sensitive: $0.persons < minimumPersons, size: Double($0.trips))
        }
        var relations: [[(cell: Int, sign: Double)]] = []
        var start = 0
        for index in sorted.indices
        where index == sorted.count - 1
            || (sorted[index + 1].origin, sorted[index + 1].destination) != (sorted[index].origin, sorted[index].destination)
        {
            // Groups of a version before bands (a Spark part's reductions) have no band rows, and no relation.
            if index > start {
                relations.append((start...index).map { (cell: $0, sign: sorted[$0].band == TimeBands.allDay ? -1.0 : 1.0) })
            }
            start = index + 1
        }
        let hidden = CellSuppression(cells: cells, relations: relations).suppressed()
        for index in hidden {
            if sorted[index].band == TimeBands.allDay {
                suppressedPairs += 1
                suppressedTrips += sorted[index].trips
            } else if cells[index].sensitive {
                suppressedBandRows += 1
            } else {
                complementaryRows += 1
            }
        }
        rows = sorted.indices.filter { !hidden.contains($0) }.map { index in
            let group = sorted[index]
            return Row(
                band: group.band, origin: group.origin, destination: group.destination, trips: group.trips, devices: group.devices,
                persons: group.persons, medianDurationSeconds: Quantile.median(group.durationsSeconds)!,
                medianDistanceMeters: Quantile.median(group.distancesMeters)!,
                modeShares: group.mainModes.mapValues { Double($0) / Double(group.trips) })
        }.sorted {
            (rank($0.band), -$0.trips, $0.origin ?? "", $0.destination ?? "") < (
                rank($1.band), -$1.trips, $1.origin ?? "", $1.destination ?? ""
            )
        }
    }
}

/// Modal split by trips (main mode), distance and time (legs), overall and by local hour of
/// day, weekday, time band (`TimeBands`) and trip purpose. A trip counts in the hour, weekday
/// and band it starts in; a leg likewise. A row
/// fewer than k distinct persons made is left out, and so are the rows that would give it away
/// by subtraction from the others and the margins (`CellSuppression`); shares are of the whole
/// group, left-out rows included. Per-device splits are in `device_stats.csv`.
public struct ModalSplit: Sendable {
    public struct Row: Sendable, Equatable {
        /// "all", "hour", "weekday", "time_band" or "trip_purpose".
        public var dimension: String
        public var key: String
        public var mode: String
        public var trips: Int
        public var persons: Int
        public var tripShare: Double
        public var distanceMeters: Double
        public var distanceShare: Double
        public var durationSeconds: Double
        public var durationShare: Double
    }

    public var rows: [Row]
    /// The k every published row met: distinct persons per row.
    public var minimumPersons: Int
    /// Rows under k persons (`primary`), and rows left out so that those cannot be recovered
    /// by subtraction (`complementary`).
    public var suppressedPrimary = 0, suppressedComplementary = 0

    public init(
        _ devices: [DeviceTrips], persons: [String: String] = [:], calendars: LocalCalendars = LocalCalendars(),
        bands: TimeBands = TimeBands(), minimumPersons: Int
    ) {
        self.init(totals: ModalTotal.totals(devices, persons: persons, calendars: calendars, bands: bands), minimumPersons: minimumPersons)
    }

    /// Shares within each (dimension, key) of trips, distance and duration; the group's
    /// whole is its modes' totals added in `Mode` order. Rows by dimension, key, mode.
    public init(totals: [ModalTotal], minimumPersons: Int) {
        self.minimumPersons = minimumPersons
        struct Whole { var trips = 0, distance = 0.0, duration = 0.0 }
        var wholes: [[String]: Whole] = [:]
        for total in totals.sorted(by: { modeRank($0.mode) < modeRank($1.mode) }) {
            let group = [total.dimension, total.key]
            wholes[group, default: Whole()].trips += total.trips
            wholes[group, default: Whole()].distance += total.distanceMeters
            wholes[group, default: Whole()].duration += total.durationSeconds
        }
        func share(_ part: Double, _ whole: Double) -> Double { whole > 0 ? part / whole : 0 }
        let dimensionOrder = ["all": 0, "hour": 1, "weekday": 2, "time_band": 3, "trip_purpose": 4]
        let weekdayOrder = Dictionary(uniqueKeysWithValues: CalendarKeys.weekdayNames.enumerated().map { ($1, $0) })
        // One order for the audit whatever order the totals came in (a dictionary's, or a
        // distributed run's reducers'): its tie-breaks go by position, so a run and Spark leave
        // out the same rows, every time.
        let ordered = totals.sorted {
            (dimensionOrder[$0.dimension] ?? 5, weekdayOrder[$0.key] ?? 0, $0.key, modeRank($0.mode), $0.mode)
                < (dimensionOrder[$1.dimension] ?? 5, weekdayOrder[$1.key] ?? 0, $1.key, modeRank($1.mode), $1.mode)
        }
        let hidden = Self.suppressed(ordered, minimumPersons: minimumPersons)
        suppressedPrimary = totals.filter { $0.persons < minimumPersons }.count
        suppressedComplementary = hidden.count - suppressedPrimary
        rows = ordered.enumerated().filter { !hidden.contains($0.offset) }.map { _, total in
            let whole = wholes[[total.dimension, total.key]]!
            return Row(
                dimension: total.dimension, key: total.key, mode: total.mode, trips: total.trips, persons: total.persons,
                tripShare: share(Double(total.trips), Double(whole.trips)), distanceMeters: total.distanceMeters,
                distanceShare: share(total.distanceMeters, whole.distance), durationSeconds: total.durationSeconds,
                durationShare: share(total.durationSeconds, whole.duration))
        }.sorted { a, b in
            (dimensionOrder[a.dimension] ?? 5, weekdayOrder[a.key] ?? 0, a.key, modeRank(a.mode))
                < (dimensionOrder[b.dimension] ?? 5, weekdayOrder[b.key] ?? 0, b.key, modeRank(b.mode))
        }
    }

    /// The indices of `totals` to leave out. The table's relations: each group's rows add up to
    /// its whole (never printed, but any published share gives it away), and for each of hour
    /// and weekday, a mode's rows add up to its row in "all", and the groups' wholes to the
    /// whole of "all". A group's whole is sensitive when every row of it is (its persons, not
    /// counted here, are then taken as fewer than k).
    static func suppressed(_ totals: [ModalTotal], minimumPersons k: Int) -> Set<Int> {
        var cells = totals.map {
            CellSuppression.Cell(publishable: true, sensitive: $0.persons < k, size: $0.durationSeconds + Double($0.trips))
        }
        var members: [[String]: [Int]] = [:]
        for (index, total) in totals.enumerated() { members[[total.dimension, total.key], default: []].append(index) }
        var whole: [[String]: Int] = [:], revealedBy: [Int: [Int]] = [:]
        for (group, indices) in members.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            whole[group] = cells.count
            revealedBy[cells.count] = indices
            cells.append(
                CellSuppression.Cell(
                    publishable: false, sensitive: indices.allSatisfy { cells[$0].sensitive },
                    size: indices.reduce(0) { $0 + cells[$1].size }))
        }
        var relations: [[(cell: Int, sign: Double)]] = members.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }).map {
            group, indices in
            indices.map { ($0, 1.0) } + [(whole[group]!, -1.0)]
        }
        let overall = Dictionary(
            totals.enumerated().filter { $0.element.dimension == "all" }.map { ($0.element.mode, $0.offset) },
            uniquingKeysWith: { first, _ in first })
        for dimension in Set(totals.map(\.dimension)).subtracting(["all"]).sorted() {
            let inDimension = totals.indices.filter { totals[$0].dimension == dimension }
            for (mode, all) in overall.sorted(by: { $0.key < $1.key }) {
                relations.append(inDimension.filter { totals[$0].mode == mode }.map { ($0, 1.0) } + [(all, -1.0)])
            }
            if let allWhole = whole[["all", "all"]] {
                relations.append(
                    Set(inDimension.map { [totals[$0].dimension, totals[$0].key] }).sorted { $0.lexicographicallyPrecedes($1) }
                        .map { (whole[$0]!, 1.0) } + [(allWhole, -1.0)])
            }
        }
        return CellSuppression(cells: cells, relations: relations, revealedBy: revealedBy).suppressed()
    }
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
    /// Distinct persons with a trip or a leg in the row.
    public var persons: Int

    public init(dimension: String, key: String, mode: String, trips: Int, distanceMeters: Double, durationSeconds: Double, persons: Int) {
        (self.dimension, self.key, self.mode, self.trips, self.distanceMeters, self.durationSeconds, self.persons) =
            (dimension, key, mode, trips, distanceMeters, durationSeconds, persons)
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
        var totals: [[String]: ModalTotal] = [:], people: [[String]: Set<String>] = [:]
        forEachRow(trips: trips, legs: legs, calendars: calendars, bands: bands) { row, entry, isTrip in
            var total =
                totals[row]
                ?? ModalTotal(dimension: row[0], key: row[1], mode: row[2], trips: 0, distanceMeters: 0, durationSeconds: 0, persons: 0)
            if isTrip {
                total.trips += 1
            } else {
                total.distanceMeters += entry.distanceMeters
                total.durationSeconds += entry.durationSeconds
            }
            totals[row] = total
            people[row, default: []].insert(entry.person)
        }
        return totals.map { key, total in
            var total = total
            total.persons = people[key]!.count
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
        var rows: [[String]: (trips: Int, distances: [Double], durations: [Double], persons: Set<String>)] = [:]
        forEachRow(trips: trips, legs: legs, calendars: calendars, bands: bands) { row, entry, isTrip in
            var found = rows[row] ?? (0, [], [], [])
            if isTrip {
                found.trips += 1
            } else {
                found.distances.append(entry.distanceMeters)
                found.durations.append(entry.durationSeconds)
            }
            found.persons.insert(entry.person)
            rows[row] = found
        }
        var table = partialSchema
        for (row, found) in rows {
            table.append(
                row.map { .text($0) } + [.integer(found.trips), .numbers(found.distances), .numbers(found.durations), .names(found.persons)]
            )
        }
        return table
    }

    /// `modal_totals` without rows: its columns and how each merges.
    public static let partialSchema = PartialTable(
        name: "modal_totals",
        columns: [
            .init("dimension", .key), .init("dimension_value", .key), .init("travel_mode", .key), .init("trips", .sum),
            .init("distance_m", .orderedSum), .init("duration_s", .orderedSum), .init("persons", .distinctCount)
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
