import Foundation
import HeatMaps
import MobilityCore
import Publication
import Trips

/// The trip stage's CSV files, with the same ids as the store: `staypoints.csv`,
/// `dwells.csv`, `locations.csv`, `triplegs.csv`, `trips.csv`, `od_matrix.csv`,
/// `modal_split.csv`, `device_stats.csv`. Times as ISO 8601 UTC and Unix seconds, units in
/// the column names.
public struct TripTables {
    public let result: TripAnalysis.Result
    public var geofences: [String: Geofence]
    private let ids: TripIdentifiers
    /// Each device's and person's local time.
    public var calendars: LocalCalendars
    /// The person-days of the run (`person_days.csv`, `untracked.csv`); nil writes neither.
    public var personDays: PersonDays?
    /// How locations were clustered: tours follow a device's own places (`Tour.tours`).
    public var locationParameters = LocationParameters()
    /// The bands of the local day the modal split is cut by.
    public var bands = TimeBands()
    /// CO2e per passenger-km of each mode, for the legs' and trips' `co2e_g`.
    public var emissionFactors = EmissionFactors.ukDESNZ2025
    /// The country each leg started in, whose factors it takes (`LegCountries.countries(of:)`;
    /// per device, then leg, in `result`'s order); empty: every leg takes the table's country.
    public var legCountries: [[String?]] = []
    /// Each device's person (the device itself where none is named), and the k of distinct
    /// persons a published aggregate row needs.
    public var persons: [String: String] = [:]
    /// The published trip tables, `od_matrix.csv` and `modal_split.csv`, as Publication computed them.
    public var publication: TripPublication

    public init(
        result: TripAnalysis.Result, geofences: [Geofence], calendars: LocalCalendars = LocalCalendars(),
        persons: [String: String] = [:], publication: TripPublication, personDays: PersonDays? = nil
    ) {
        self.personDays = personDays
        self.result = result
        (self.persons, self.publication) = (persons, publication)
        self.geofences = Dictionary(geofences.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        ids = TripIdentifiers(result.devices)
        self.calendars = calendars
    }

    public static let fileNames = [
        "staypoints.csv", "dwells.csv", "locations.csv", "triplegs.csv", "trips.csv", "od_matrix.csv",
        "modal_split.csv", "device_stats.csv", "person_days.csv", "untracked.csv", "tours.csv"
    ]

    /// Writes the aggregates to `folder` and the tables with a row per device, staypoint,
    /// dwell, location, leg or trip to `restricted` (`OutputLayout`).
    public func write(to folder: String, restricted: String) throws {
        let path = { (name: String) in (folder as NSString).appendingPathComponent(name) }
        let restrictedPath = { (name: String) in (restricted as NSString).appendingPathComponent(name) }
        try staypoints().write(to: restrictedPath("staypoints.csv"))
        try dwells().write(to: restrictedPath("dwells.csv"))
        try locations().write(to: restrictedPath("locations.csv"))
        try triplegs().write(to: restrictedPath("triplegs.csv"))
        try trips().write(to: restrictedPath("trips.csv"))
        try odMatrixCSV().write(to: path("od_matrix.csv"))
        try modalSplitCSV().write(to: path("modal_split.csv"))
        try deviceStatistics().write(to: restrictedPath("device_stats.csv"))
        try personDaysCSV().write(to: restrictedPath("person_days.csv"))
        try untrackedCSV().write(to: restrictedPath("untracked.csv"))
        try toursCSV().write(to: restrictedPath("tours.csv"))
    }

    func toursCSV() -> CSVWriter {
        var csv = CSVWriter(columns: OutputSchema.tours.names)
        for (deviceIndex, device) in result.devices.enumerated() {
            for tour in Tour.tours(device, locations: locationParameters) {
                csv.append(
                    [
                        persons[device.device] ?? device.device, device.device, String(ids.trip(deviceIndex, tour.firstTrip)),
                        String(ids.trip(deviceIndex, tour.lastTrip)), String(tour.trips)
                    ] + Self.time(tour.startSeconds) + Self.time(tour.endSeconds)
                        + [
                            Self.number(tour.endSeconds - tour.startSeconds, 1), Self.number(tour.distanceMeters, 1),
                            String(ids.staypoint(deviceIndex, tour.anchor)), tour.anchorPurpose, String(tour.isHomeBased), tour.mainPurpose,
                            tour.kind, tour.mainMode?.rawValue ?? unknownModeName
                        ])
            }
        }
        return csv
    }

    func personDaysCSV() -> CSVWriter {
        var csv = CSVWriter(columns: OutputSchema.personDays.names)
        for day in personDays?.days ?? [] {
            csv.append(
                [day.person, day.date, day.zone] + Self.time(day.startSeconds) + Self.time(day.endSeconds)
                    + [
                        Self.number(day.lengthSeconds, 0), Self.number(day.trackedSeconds, 3), Self.number(day.untrackedSeconds, 3),
                        Self.number(day.trackedShare, 4), String(day.fixes), Self.number(day.imuSeconds / 60, 2),
                        day.valid ? "true" : "false"
                    ])
        }
        return csv
    }

    func untrackedCSV() -> CSVWriter {
        var csv = CSVWriter(columns: OutputSchema.untracked.names)
        for day in personDays?.days ?? [] {
            for gap in day.untracked {
                csv.append([day.person, day.date] + Self.time(gap.startSeconds) + Self.time(gap.endSeconds) + [Self.number(gap.seconds, 3)])
            }
        }
        return csv
    }

    static func time(_ seconds: Double?) -> [String?] {
        guard let seconds else { return [nil, nil] }
        return [ISO8601.formatMillis(Timestamp(secondsSince1970: seconds)), number(seconds, 3)]
    }

    static func number(_ value: Double, _ decimals: Int) -> String { String(format: "%.\(decimals)f", value) }
    static func degrees(_ value: Double) -> String { number(value, 6) }
    static func id(_ value: Int?) -> String? { value.map(String.init) }

    func staypoints() -> CSVWriter {
        var csv = CSVWriter(columns: OutputSchema.staypoints.names)
        for (deviceIndex, device) in result.devices.enumerated() {
            for (index, stay) in device.staypoints.enumerated() {
                csv.append(
                    [String(ids.staypoint(deviceIndex, index)), stay.device] + Self.time(stay.startSeconds) + Self.time(stay.endSeconds)
                        + [
                            Self.number(stay.durationSeconds, 1), Self.degrees(stay.latitudeDegrees), Self.degrees(stay.longitudeDegrees),
                            String(stay.fixCount), String(stay.isOpen), String(stay.isActivity),
                            Self.id(stay.location.map(TripIdentifiers.location)), stay.geofence, stay.purpose, stay.kind.rawValue
                        ])
            }
        }
        return csv
    }

    func dwells() -> CSVWriter {
        var csv = CSVWriter(columns: OutputSchema.dwells.names)
        for (deviceIndex, device) in result.devices.enumerated() {
            for (index, dwell) in device.dwells.enumerated() {
                let fence = geofences[dwell.geofenceID]
                let centre = dwell.center
                csv.append(
                    [
                        String(ids.dwell(deviceIndex, index)), dwell.device, dwell.geofenceID, fence?.name ?? dwell.geofenceID,
                        fence?.kind ?? "zone"
                    ] + Self.time(dwell.entrySeconds) + Self.time(dwell.exitSeconds)
                        + [
                            Self.number(dwell.durationSeconds, 1), String(dwell.fixesUsed), dwell.closure.rawValue,
                            Self.number(dwell.longestGapSeconds, 1), Self.degrees(centre.latitudeDegrees),
                            Self.degrees(centre.longitudeDegrees)
                        ])
            }
        }
        return csv
    }

    func locations() -> CSVWriter { Self.locations(result.locations) }

    /// `locations.csv` of `locations`, whose ids are their positions (`TripIdentifiers.location`).
    public static func locations(_ locations: [Location]) -> CSVWriter {
        var csv = CSVWriter(columns: OutputSchema.locations.names)
        for (index, location) in locations.enumerated() {
            csv.append([
                String(TripIdentifiers.location(index)), location.device, String(location.number), Self.degrees(location.latitudeDegrees),
                Self.degrees(location.longitudeDegrees), String(location.staypoints), String(location.devices),
                Self.number(location.totalStaySeconds, 1), location.purpose?.purpose, location.purpose?.method,
                location.purpose.map { Self.number($0.score, 4) }
            ])
        }
        return csv
    }

    func triplegs() -> CSVWriter {
        var csv = CSVWriter(columns: OutputSchema.triplegs.names)
        for (deviceIndex, device) in result.devices.enumerated() {
            let countries = country(deviceIndex)
            for (index, leg) in device.triplegs.enumerated() {
                let speed = leg.durationSeconds > 0 ? leg.distanceMeters / leg.durationSeconds : 0
                csv.append(
                    [String(ids.tripleg(deviceIndex, index)), Self.id(leg.trip.map { ids.trip(deviceIndex, $0) }), leg.device]
                        + Self.time(leg.startSeconds) + Self.time(leg.endSeconds)
                        + [
                            Self.number(leg.durationSeconds, 1), Self.number(leg.distanceMeters, 1), Self.number(speed, 2),
                            leg.mode?.rawValue ?? unknownModeName, leg.modeSource?.rawValue ?? Self.noDecider, leg.modeNote ?? "",
                            emissionFactors.grams(
                                mode: leg.mode, distanceMeters: leg.distanceMeters,
                                year: calendars.device(leg.device).year(leg.startSeconds), country: countries(index)
                            ).map { Self.number($0, 1) },
                            emissionFactors.megajoules(
                                mode: leg.mode, distanceMeters: leg.distanceMeters,
                                year: calendars.device(leg.device).year(leg.startSeconds), country: countries(index)
                            ).map { Self.number($0, 3) },
                            countries(index),
                            String(leg.fixCount),
                            Self.id(leg.previousStaypoint.map { ids.staypoint(deviceIndex, $0) }),
                            Self.id(leg.nextStaypoint.map { ids.staypoint(deviceIndex, $0) })
                        ] + Self.evidence(leg.evidence))
            }
        }
        return csv
    }

    /// Device `deviceIndex`'s legs' countries, by leg index (nil: the table's).
    private func country(_ deviceIndex: Int) -> (Int) -> String? {
        let countries = legCountries.isEmpty ? [] : legCountries[deviceIndex]
        return { countries.isEmpty ? nil : countries[$0] }
    }

    /// `mode_source` of a leg nothing decided (`travel_mode` unknown): no IMU window and no GPS
    /// speed covered it.
    public static let noDecider = "none"

    /// A leg's evidence (`LegEvidence`), in `triplegs.csv`: the share of its time under IMU
    /// windows and their mode; the GPS leg model's probability of each mode it knows; and the
    /// transit match (`TransitMatch`): share of fixes along rail and bus corridors, stops and
    /// stations passed and stopped at, stop places, metres from each end to the nearest rail
    /// and bus stop (at most 2,000), the longest time between fixes. Empty where that evidence
    /// was not there.
    static let evidenceColumns = OutputSchema.triplegs.names.count - OutputSchema.triplegs.index("imu_share")
    static var gpsModes: [Mode] { OutputSchema.gpsLegModes }

    static func evidence(_ evidence: LegEvidence?) -> [String] {
        guard let evidence else { return [String](repeating: "", count: evidenceColumns) }
        var fields = [number(evidence.imuShare, 3), evidence.imuMode?.rawValue ?? "", number(evidence.imuModeShare, 3)]
        fields += gpsModes.map { mode in evidence.gpsProbabilities.map { number($0[mode] ?? 0, 3) } ?? "" }
        if let t = evidence.transit {
            fields += [
                number(t.corridorShare[.rail] ?? 0, 3), number(t.corridorShare[.bus] ?? 0, 3), String(t.passed[.rail] ?? 0),
                String(t.passed[.bus] ?? 0), String(t.stoppedAt[.rail] ?? 0), String(t.stoppedAt[.bus] ?? 0), String(t.stops),
                number(t.startMeters[.rail] ?? 0, 1), number(t.endMeters[.rail] ?? 0, 1), number(t.startMeters[.bus] ?? 0, 1),
                number(t.endMeters[.bus] ?? 0, 1), number(t.longestGapSeconds, 1)
            ]
            fields += Self.line(evidence)
        } else {
            fields += [String](repeating: "", count: evidenceColumns - fields.count)
        }
        return fields
    }

    /// The ride's line (`TransitLine`): feed, agency, route, its finer type and direction, the
    /// stops where it boarded and alighted with their distances from the ride's ends, the stops
    /// it stopped at, the match's score; or, where no line fits a motorised ride, why not
    /// (`transit_line_note`).
    static func line(_ evidence: LegEvidence) -> [String] {
        guard let line = evidence.transit?.line else {
            return [String](repeating: "", count: 14) + [evidence.transit?.lineNote ?? ""] + [String](repeating: "", count: 7)
        }
        let trip = line.timetable
        return [
            line.feed, line.agency, line.routeID, line.routeName, line.routeTypeName ?? String(line.routeType),
            line.direction.map(String.init) ?? "", line.board.stopID, line.board.name, number(line.board.meters, 1),
            line.alight.stopID, line.alight.name, number(line.alight.meters, 1), String(line.stationStops), number(line.score, 3), "",
            trip?.tripID ?? "", trip?.serviceDate ?? "", trip?.scheduledDepartureText ?? "", trip?.scheduledArrivalText ?? "",
            trip?.departureDelaySeconds.map { number($0, 1) } ?? "",
            trip?.arrivalDelaySeconds.map { number($0, 1) } ?? "", line.timetableNote ?? ""
        ]
    }

    func trips() -> CSVWriter {
        var csv = CSVWriter(columns: OutputSchema.trips.names)
        for (deviceIndex, device) in result.devices.enumerated() {
            let countries = country(deviceIndex)
            for (index, trip) in device.trips.enumerated() {
                let legModes = trip.legs.map { device.triplegs[$0].mode?.rawValue ?? unknownModeName }.joined(separator: ">")
                csv.append(
                    [String(ids.trip(deviceIndex, index)), trip.device] + Self.time(trip.startSeconds) + Self.time(trip.endSeconds)
                        + [
                            Self.number(trip.durationSeconds, 1), Self.number(trip.distanceMeters, 1),
                            trip.mainMode?.rawValue ?? unknownModeName,
                            String(trip.legs.count), legModes,
                            emissionFactors.grams(
                                of: trip, legs: device.triplegs, year: { calendars.device(trip.device).year($0) },
                                country: countries
                            ).map { Self.number($0, 1) },
                            emissionFactors.megajoules(
                                of: trip, legs: device.triplegs, year: { calendars.device(trip.device).year($0) },
                                country: countries
                            ).map { Self.number($0, 3) },
                            Self.id(trip.originStaypoint.map { ids.staypoint(deviceIndex, $0) }),
                            Self.id(trip.destinationStaypoint.map { ids.staypoint(deviceIndex, $0) }),
                            Self.id(trip.originStaypoint.flatMap { device.staypoints[$0].location }.map(TripIdentifiers.location)),
                            Self.id(trip.destinationStaypoint.flatMap { device.staypoints[$0].location }.map(TripIdentifiers.location)),
                            trip.originGeofence, trip.originGeofence.map { geofences[$0]?.name ?? $0 },
                            trip.destinationGeofence, trip.destinationGeofence.map { geofences[$0]?.name ?? $0 }
                        ]
                        + {
                            let ends = PlacePurposes.ends(of: trip, in: device); return [ends.origin, ends.destination, ends.trip]
                        }()
                        + [trip.origin?.kind.rawValue, trip.destination?.kind.rawValue]
                        + [trip.origin, trip.destination].flatMap { end in
                            [end.map { Self.degrees($0.latitudeDegrees) }, end.map { Self.degrees($0.longitudeDegrees) }]
                        })
            }
        }
        return csv
    }

    func odMatrixCSV() -> CSVWriter { Self.odMatrix(publication.odMatrix, geofences: geofences) }

    /// A distributed run's part's partial groups of the OD table and the modal split (never
    /// published): the groups a single run reduces its trips to, before the merge
    /// (`ODGroup.partialTable`, `ModalTotal.partialTable`).
    public func partialTables() -> [PartialTable] {
        [
            ODGroup.partialTable(result.devices, persons: persons, calendars: calendars, bands: bands),
            ODGroup.modePartialTable(result.devices, persons: persons, calendars: calendars, bands: bands),
            ModalTotal.partialTable(result.devices, persons: persons, calendars: calendars, bands: bands)
        ]
    }

    func modalSplitCSV() -> CSVWriter { Self.modalSplit(publication.modalSplit) }

    /// `od_grid.csv`'s rows of a grid OD.
    public static func odGrid(_ od: ODGrid) -> CSVWriter {
        var csv = CSVWriter(columns: OutputSchema.odGrid.names)
        func degrees(_ value: Double) -> String { String(format: "%.6f", value) }
        for row in od.rows {
            let (o, d) = (row.grid.centre(row.origin), row.grid.centre(row.destination))
            csv.append(
                [
                    String(Int(row.grid.cellMeters)), row.grid.id(row.origin), degrees(o.latitude), degrees(o.longitude),
                    row.grid.id(row.destination), degrees(d.latitude),
                    degrees(d.longitude), String(row.trips), String(row.devices), String(row.persons),
                    String(format: "%.1f", row.medianDurationSeconds), String(format: "%.1f", row.medianDistanceMeters)
                ] + shares(row.modeShares, leftOut: row.suppressedModes))
        }
        return csv
    }

    /// `od_matrix.csv` of a matrix (from one run's trips, or from a distributed run's groups).
    public static func odMatrix(_ matrix: ODMatrix, geofences: [String: Geofence]) -> CSVWriter {
        var csv = CSVWriter(columns: OutputSchema.odMatrix.names)
        for row in matrix.rows {
            let fields: [String?] = [
                row.band, row.origin, row.origin.map { geofences[$0]?.name ?? $0 } ?? "(no geofence)", row.destination,
                row.destination.map { geofences[$0]?.name ?? $0 } ?? "(no geofence)", String(row.trips), String(row.devices),
                String(row.persons), Self.number(row.medianDurationSeconds, 1), Self.number(row.medianDistanceMeters, 1)
            ]
            csv.append(fields + shares(row.modeShares, leftOut: row.suppressedModes))
        }
        return csv
    }

    /// An OD row's share columns (`OutputSchema.publishedModeNames`): a share left out is empty,
    /// a mode without trips in the row 0.
    public static func shares(_ shares: [String: Double], leftOut: Set<String>) -> [String?] {
        OutputSchema.publishedModeNames.map { leftOut.contains($0) ? "" : number(shares[$0] ?? 0, 4) }
    }

    /// `modal_split.csv` of a split (from one run's trips, or from a distributed run's totals).
    public static func modalSplit(_ split: ModalSplit) -> CSVWriter {
        var csv = CSVWriter(columns: OutputSchema.modalSplit.names)
        for row in split.rows {
            csv.append([
                row.dimension, row.key, row.mode, String(row.trips), String(row.persons), Self.number(row.tripShare, 4),
                row.distanceMeters.map { Self.number($0, 1) }, row.distanceShare.map { Self.number($0, 4) },
                row.durationSeconds.map { Self.number($0, 1) }, row.durationShare.map { Self.number($0, 4) }
            ])
        }
        return csv
    }

    func deviceStatistics() -> CSVWriter {
        let modes = OutputSchema.modeNames
        var csv = CSVWriter(columns: OutputSchema.deviceStats.names)
        for row in DeviceStatistics(result.devices, calendars: calendars).rows {
            let weeks = max(row.weeksObserved, 1.0 / 7)
            csv.append(
                [row.device, String(row.fixes)] + Self.time(row.firstSeconds) + Self.time(row.lastSeconds)
                    + [
                        String(row.daysObserved), String(row.staypoints), String(row.dwells), String(row.trips),
                        Self.number(row.distanceMeters, 1), Self.number(row.hoursInMotion, 3)
                    ]
                    + modes.map { Self.number((row.secondsPerMode[$0] ?? 0) / 3600, 3) }
                    + modes.map { Self.number(row.distancePerMode[$0] ?? 0, 1) }
                    + modes.map { Self.number((row.secondsPerMode[$0] ?? 0) / 3600 / weeks, 3) })
        }
        return csv
    }
}
