import Classify
import Features
import Foundation
import Fusion
import HeatMaps
import MobilityCore
import Publication
import Reports
import Store
import Transit
import Trips

/// The trip stage over a store: reads every device's fixes, geofences and classified
/// windows, finds staypoints, dwells, locations, triplegs and trips, replaces them in the
/// store (one transaction) and writes the CSV and GeoJSON files.
public struct TripsRun {
    public var storePath: String
    public var reportsFolder: String
    /// Where the tables with a row per device, staypoint, dwell, location, leg or trip go
    /// (default `reportsFolder/restricted`, `OutputLayout`; a distributed run's part keeps them
    /// flat in its work folder).
    public var restrictedFolder: String?
    /// Write the trip tables and GeoJSON into `reportsFolder` (false: the store only, as a
    /// partial run of `pipeline run --partial` keeps them).
    public var writesFiles = true
    /// A distributed run's part: also write its partial groups (`od_groups`, `modal_totals`;
    /// `TripTables.partialTables`) into this folder for the merge.
    public var partialsFolder: String?
    public var parameters = TripStageParameters()
    /// The calendar every device's local time is in, with its source (`calendar.time_zone`,
    /// `--time-zone`, or a fixed offset); nil: each device's own (`DeviceZone`).
    public var configuredCalendar: (calendar: CalendarKeys, source: String)?
    /// The time-zone boundary file (`calendar.boundaries`): read when a device with fixes has no
    /// zone from the manifest or the configuration; missing then, the stage fails naming it.
    public var zoneBoundaries = ShippedFile.timeZones
    /// Person-days' coverage settings.
    public var personDayParameters = PersonDayParameters()
    /// The bands of the local day the modal split is cut by.
    public var bands = TimeBands()
    /// CO2e per passenger-km of each mode, for the legs' and trips' `co2e_g`.
    public var emissionFactors = EmissionFactors.ukDESNZ2025
    /// The country each leg started in, whose factors it takes (`planning.countries`).
    public var legCountries = LegCountries()
    /// What people say of their legs, applied after every inferred mode (`LegCorrections`).
    public var corrections = LegCorrections()
    public var grouping = TrackGrouping.device
    /// Names GPS-only legs when set (the mode model's `gpsLegs`); else the speed rules do.
    public var legModel: GPSLegModel?
    /// The modes of the IMU model that classified the stored windows (`LegFusion` leaves bike
    /// to the GPS leg model when it is not among them).
    public var imuClasses: [Mode] = []
    /// The transit feeds' stops and corridors (`--transit`), for every leg's transit match.
    public var transit: TransitNetwork?
    /// What the feed is ("PATH: N stops …", `TransitRun.index`): kept in the store with what it
    /// gave the legs (`PipelineStore.transitUse`), so the report says which feed decided them, or that none did.
    public var transitDescription: String?
    /// When a ride is on time in `punctuality.csv` (`transit.on_time_*_seconds`).
    public var onTime = LinePunctuality.OnTime()
    /// Distinct persons a published aggregate row needs (k; the heat maps' k). Default 3.
    public var minimumPersons = HeatMapParameters().minimumPersons

    /// Fixes read from the store at a time (`PipelineStore.forEachTrackPiece`): 2 MB.
    static let pieceFixes = 65_536

    /// A boundary file the user named (`--time-zone-boundaries`, `calendar.boundaries`) that is
    /// not there stops the command before it reads anything (no zone given for every device):
    /// a mistyped path would otherwise be found only after a whole ingest. The shipped file,
    /// missing, is checked where it is needed (`loadBoundaries`): a manifest may give every
    /// device its zone.
    public static func requireNamedBoundaries(_ path: String, configured: Bool) throws {
        guard !configured, path != ShippedFile.timeZones, !FileManager.default.fileExists(atPath: path) else { return }
        throw PipelineError(
            .modelMissing, path: path,
            reason: "the time-zone boundary file given (--time-zone-boundaries, calendar.boundaries) does not exist: give the path "
                + "of one (the shipped one is \(ShippedFile.timeZones) in the repository, or share/mobility-pipeline/ under the "
                + "install prefix), or every device's zone with --time-zone")
    }

    /// The time-zone boundaries, when a device with fixes needs them (nil when the manifest or
    /// the configuration gives every such device its zone).
    func loadBoundaries(devices: [String], manifestZones: [String: [String]]) throws -> ZoneBoundaries? {
        let unnamed = configuredCalendar == nil ? devices.filter { manifestZones[$0]?.isEmpty ?? true } : []
        guard !unnamed.isEmpty else { return nil }
        let path = ShippedFile.resolve(zoneBoundaries, default: ShippedFile.timeZones)
        guard FileManager.default.fileExists(atPath: path) else {
            throw PipelineError(
                .modelMissing, path: path,
                reason:
                    "no time-zone boundary file, and \(unnamed.count) devices (\(unnamed.prefix(3).joined(separator: ", "))\(unnamed.count > 3 ? ", …" : "")) "
                    + "have no zone from the manifest: give the file with --time-zone-boundaries (the shipped one is \(ShippedFile.timeZones) in the "
                    + "repository, or share/mobility-pipeline/ under the install prefix), or every device's zone in the manifest (timezone) or with --time-zone"
            )
        }
        return try ZoneBoundaries(contentsOf: path)
    }

    public init(storePath: String, reportsFolder: String) {
        self.storePath = storePath
        self.reportsFolder = reportsFolder
    }

    public struct Summary: Sendable, Encodable {
        public var devices = 0
        public var fixes = 0
        public var geofences = 0
        public var staypoints = 0
        public var dwells = 0
        public var locations = 0
        public var triplegs = 0
        public var trips = 0
        /// How the trips' ends were placed (`TripEnd.Kind`), and the stays across gaps.
        public var tripEnds = TripEnd.Tally()
        /// Legs whose mode came from classified IMU windows, from GPS rules, or from nothing.
        /// `seconds_trips` includes the GPS-rule modes, computed per device beside its stages.
        public var legsByModeSource: [String: Int] = [:]
        /// With a transit feed: the legs that start or end within 2 km of one of its stops
        /// (the others got no evidence from it); nil without a feed.
        @NullEncodable public var legsNearTransit: Int?
        /// Per feed, what it gave the legs (`TransitNetwork.uses`); empty without a feed.
        public var transit: [TransitFeedUse] = []
        /// `punctuality.csv`: rides on a scheduled trip, rows published and left out; nil without a feed.
        @NullEncodable public var punctuality: LinePunctuality.Counts?
        /// Jumps no mode reaches, split off as legs without a mode (`FlightsAndJumps`).
        public var jumps = 0
        /// Legs at rest in no trip: pieces of still legs alone, which no staypoint closed (`TripBuilder`).
        public var stillLegsInNoTrip = 0
        /// How often the leg decision changed a source's own answer (`FusionTally`).
        public var fusion = FusionTally()
        /// Legs nothing decided (no IMU window, no GPS speed covered them), their metres and seconds.
        public var undecidedLegs = 0
        public var undecidedMeters = 0.0
        public var undecidedSeconds = 0.0
        /// `od_matrix.csv`: pairs published, and the pairs and trips made by fewer than k persons, suppressed.
        public var odMatrix = ODMatrixCounts()
        /// `modal_split.csv`: rows published, and those left out (under k persons, and to protect them).
        public var modalSplit = ModalSplitCounts()
        /// Devices by where their local time's zone came from (`DeviceZone`), and the zones used.
        public var zoneSources: [String: Int] = [:]
        public var zones: [String] = []
        /// Devices whose manifest rows name two zones, or that have no zone at all.
        public var zoneWarnings: [String] = []
        /// Legs by the country whose CO2e factors they took (`LegCountries`).
        @NullEncodable public var co2eCountries: LegCountries.Tally?
        /// Person-days and their tracking coverage (`person_days.csv`).
        @NullEncodable public var coverage: PersonDays.Summary?
        /// Reading fixes from the store, summed over the devices read side by side: a device is
        /// read a piece at a time between its stages, so this is part of `seconds_trips`, not before it.
        public var secondsLoading = 0.0
        /// Everything up to writing: reading the devices and their stages, locations, person-days.
        public var secondsTrips = 0.0
        public var secondsWriting = 0.0
        /// Of `seconds_trips`: deciding zones, purposes, person-days and the diary's episodes.
        public var secondsPersonDays = 0.0
        public var files: [String] = []

        /// Said when a feed was given and no leg came within 2 km of its stops: a feed of
        /// another region gives no evidence, and every transit column says 2,000 m.
        public var transitWarning: String? {
            guard let near = legsNearTransit, near == 0, triplegs > 0 else { return nil }
            return
                "transit: none of the \(triplegs) triplegs starts or ends within 2 km of a stop of the feed, so it decided nothing; is it the feed of this region?"
        }

        /// Said when jumps were split off: they are data errors, not travel, and have no mode.
        public var jumpWarning: String? {
            guard jumps > 0 else { return nil }
            return "trips: \(jumps) jumps between consecutive fixes faster than any passenger travels "
                + "(over \(Int(TravelSpeeds.fastestAnyModeMetersPerSecond)) m/s across 1 km or more) were split off as legs without a mode "
                + "(triplegs.csv: mode_source plausibility, travel_mode unknown): a receiver's relocation or a clock error, not travel"
        }

        /// Said when legs have no mode and nothing decided them: they count as unknown in the modal split.
        public var undecidedWarning: String? {
            guard undecidedLegs > 0 else { return nil }
            return
                "trips: \(undecidedLegs) legs (\(String(format: "%.1f", undecidedMeters / 1000)) km, \(String(format: "%.0f", undecidedSeconds / 60)) min) "
                + "have no mode (triplegs.csv: travel_mode unknown, mode_source none): no IMU window covers them and their fixes are too few "
                + "or too far apart (over 2 minutes) to give a GPS speed; they count as unknown in the modal split. IMU data of the device, or "
                + "denser fixes, would name them"
        }

        enum CodingKeys: String, CodingKey {
            case devices, fixes, geofences, staypoints, dwells, locations, triplegs, trips, jumps, fusion, odMatrix = "od_matrix",
                stillLegsInNoTrip = "still_legs_in_no_trip",
                tripEnds = "trip_ends",
                modalSplit = "modal_split", zoneSources = "zone_sources", zones, coverage, co2eCountries = "co2e_countries"
            case undecidedLegs = "undecided_legs", undecidedMeters = "undecided_m", undecidedSeconds = "undecided_s"
            case legsByModeSource = "legs_by_mode_source", legsNearTransit = "legs_near_transit", transit, punctuality
            case secondsLoading = "seconds_loading"
            case secondsTrips = "seconds_trips", secondsWriting = "seconds_writing", secondsPersonDays = "seconds_person_days", files
        }
    }

    /// Punctuality per line (`LinePunctuality`) of the legs on a scheduled trip, with what it
    /// published kept for the report (said in the log only with a feed: without one it has no rows to say anything of).
    func publishPunctuality(
        _ devices: [DeviceTrips], persons: [String: String], store: PipelineStore, progress: ProgressReporter
    ) throws -> LinePunctuality {
        let (rides, matched) = LinePunctuality.rides(devices, persons: persons)
        let table = LinePunctuality(rides, matched: matched, bands: bands, privacy: PrivacyParameters(k: minimumPersons), onTime: onTime)
        if transit != nil { progress.log(table.line) }
        try store.setDerivedState(PipelineStore.punctualityKey, transit == nil ? "" : table.line)
        return table
    }

    public func run(progress: ProgressReporter) throws -> Summary {
        try Self.requireNamedBoundaries(zoneBoundaries, configured: configuredCalendar != nil)
        return try StoreSession.run(storePath: storePath, progress: progress) { try run(store: $0, progress: progress) }
    }

    /// The stage on a command's open store (`pipeline run` hands every stage its one session's store).
    public func run(store: PipelineStore, progress: ProgressReporter) throws -> Summary {
        var summary = Summary()
        var clock = Date()
        func lap() -> Double { defer { clock = Date() }; return Date().timeIntervalSince(clock) }

        let runID = try store.beginRun(command: "trips")
        let geofences = try store.geofences()
        let stored = try store.modeSpans()
        // Devices with classified IMU windows and no fix too: their legs are by time (`TimeLegs`).
        var names = try store.trackNames(groupedBy: grouping)
        if grouping == .device {
            let imuOnly = Set(stored.filter { $0.value.contains { $0.source.isIMUModel } }.keys).subtracting(names)
            names = (names + imuOnly).sorted()
        }
        summary.devices = names.count
        summary.geofences = geofences.count
        progress.log(
            "trips: \(names.count) devices with fixes, \(geofences.count) geofences, classified windows for \(stored.count) devices")

        // A batch of devices at a time (as many as cores): their full tracks are dropped once
        // analysed, so memory follows the largest devices, not the data set.
        let legModel = self.legModel, legFeatures = TransitGeofences.legFeatures(geofences)
        if let legModel, legModel.usesTransitGeofences, legFeatures.transitDistanceMeters == nil, !names.isEmpty {
            progress.log(
                "warning: the GPS leg model was trained with transit geofences and the store has none of kinds "
                    + TransitGeofences.kinds.sorted().joined(separator: ", ") + ": its legs lack the distances of their ends from transit")
        }
        let fusion = LegFusion(legModel: legModel, imuClasses: imuClasses, legFeatures: legFeatures, transit: transit?.index)
        let (corrections, owners) = (self.corrections, corrections.isEmpty ? [:] : try store.devicePersons())
        var analysis = TripAnalysis(parameters: parameters)
        // A metro ride underground is a ride, not a stay.
        if transit != nil { analysis.ridesAcrossGap = { fusion.ridesUnderground($0, $1) } }
        let batchSize = Jobs.width
        var devices: [DeviceTrips] = []
        let manifestZones = try store.deviceTimeZones()
        let dataset = configuredCalendar?.calendar ?? CalendarKeys()
        let boundaries = try loadBoundaries(devices: names, manifestZones: manifestZones)
        var zones: [String: LocalCalendars.Zone] = [:]
        // One device per core, each read from the store a piece at a time (`TrackPieceAnalysis`:
        // memory for the fixes since its last long stay or gap, not its whole track); a device whose
        // files the store does not give in time order is read whole and sorted, and analysed the same way.
        let pieceFixes = Self.pieceFixes, analysed = analysis, grouping = grouping
        // The legs' lines wait for the store in a file beside it, not in memory (`TextSpool`).
        let lineSpool = try TextSpool(directory: URL(fileURLWithPath: storePath).deletingLastPathComponent().path)
        for start in stride(from: 0, to: names.count, by: batchSize) {
            progress.update(done: start, total: names.count, item: names[start])
            let batch = Array(names[start..<min(names.count, start + batchSize)])
            let slots = ConcurrentSlots<Result<(trips: DeviceTrips, zone: LocalCalendars.Zone?, secondsReading: Double), Error>>(
                count: batch.count)
            Jobs.perform(batch.count) { index in
                let name = batch[index]
                let spans = stored[name] ?? []
                let imuSpans = spans.filter { $0.source.isIMUModel }
                func pieces() -> TrackPieceAnalysis<DeviceLegs> {
                    var analysis = TrackPieceAnalysis(
                        analysed, device: name, geofences: geofences,
                        modes: { track, staypoints in
                            DeviceModes.timeline(track, stored: spans, staypoints: staypoints, legModel: legModel, legFeatures: legFeatures)
                        },
                        legs: DeviceLegs(fusion, imuSpans: imuSpans, device: name, person: owners[name] ?? name, corrections: corrections))
                    analysis.lineSpool = lineSpool
                    analysis.zoneBoundaries = boundaries
                    analysis.fixFolder = lineSpool.directory
                    return analysis
                }
                slots.store(
                    Result {
                        var analysis = pieces()
                        let clock = Date()
                        var secondsAnalysing = 0.0
                        let streamed = try store.forEachTrackPiece(named: name, groupedBy: grouping, pieceSize: pieceFixes) { piece in
                            let started = Date()
                            try analysis.add(piece)
                            secondsAnalysing += Date().timeIntervalSince(started)
                        }
                        if !streamed {
                            analysis = pieces()
                            let track = try store.track(named: name, groupedBy: grouping)
                            let started = Date()
                            try analysis.add(track.points.array)
                            secondsAnalysing += Date().timeIntervalSince(started)
                        }
                        let secondsReading = Date().timeIntervalSince(clock) - secondsAnalysing
                        let (trips, zone) = analysis.finish()
                        return (trips, zone, secondsReading)
                    }, at: index)
            }
            for result in slots.values {
                let device = try result.get()
                summary.secondsLoading += device.secondsReading
                summary.fixes += device.trips.observed.fixes
                zones[device.trips.device] = DeviceZone.decide(
                    sampled: device.zone.map {
                        DeviceZone.byFirstStays($0, stays: device.trips.staypoints.map { ($0.startSeconds, $0.endSeconds) })
                    }, manifest: manifestZones[device.trips.device] ?? [], configured: configuredCalendar,
                    dataset: dataset)
                devices.append(device.trips)
            }
            LargeBlocks.returnFreed() // the batch's pieces and windows, before the next batch's
        }
        progress.update(done: names.count, total: names.count, item: "")
        try lineSpool.check()
        var result = analysis.result(devices)
        let personDayClock = Date()
        for device in stored.keys where zones[device] == nil { // IMU only
            zones[device] = DeviceZone.decide(
                track: nil, boundaries: nil, manifest: manifestZones[device] ?? [], configured: configuredCalendar, dataset: dataset)
        }
        let persons = try store.devicePersons()
        let calendars = LocalCalendars(dataset, devices: zones, personDevices: DeviceZone.personDevices(zones: zones, persons: persons))
        PlacePurposes.label(
            &result, geofenceKinds: Dictionary(geofences.map { ($0.id, $0.kind) }, uniquingKeysWith: { first, _ in first }),
            calendars: calendars, method: personDayParameters.purposeMethod, locations: parameters.locations)
        PlacePurposes.correct(&result, corrections: corrections.corrections, persons: persons)
        let imuSpans = stored.mapValues { spans in
            spans.filter { $0.source.isIMUModel }.map { PersonDay.Interval($0.startSeconds, $0.endSeconds) }
        }
        let personDays = PersonDays(
            result.devices, persons: persons, calendars: calendars, imuSpans: imuSpans, parameters: personDayParameters)
        // The alarm compares this run with the store's earlier ones; this run's median joins them.
        let history = CoverageHistory(text: try store.derivedState(PipelineStore.coverageHistoryKey))
        let coverage = personDays.summary(earlierMedians: history.earlierMedians(than: personDays.data))
        summary.coverage = coverage
        if let median = coverage.medianTrackedShare {
            try store.setDerivedState(PipelineStore.coverageHistoryKey, history.recording(median: median, data: personDays.data).text)
        }
        try store.setDerivedState(PipelineStore.personDaysSummaryKey, try JSONText.string(coverage, keys: .asDeclared, layout: .compact))
        let episodes = Diary.episodes(result, persons: persons, days: personDays)
        (summary.zoneSources, summary.zones, summary.zoneWarnings) = DeviceZone.tally(zones, manifest: manifestZones)
        summary.zoneWarnings.forEach { progress.log("warning: " + $0) }
        if let coverage = summary.coverage, coverage.personDays > 0 {
            progress.log(
                "person-days: \(coverage.personDays), \(coverage.valid) valid (tracked ≥ \(Int(coverage.minimumCoverage * 100)) % of "
                    + (coverage.window.map { "the study window \($0)" } ?? "the day") + "), median tracked "
                    + String(format: "%.0f %%", (coverage.medianTrackedShare ?? 0) * 100)
                    + "; \(coverage.daysNotRecorded) dates between a person's first and last without a fix or IMU window are no person-days"
                    + "; local time in " + calendars.name)
        }
        if let sentence = summary.coverage?.noValidDay { progress.log("warning: person-days: " + sentence) }
        if let warning = summary.coverage?.warning { progress.log("warning: " + warning) }
        summary.secondsPersonDays += Date().timeIntervalSince(personDayClock)
        summary.secondsTrips = lap()

        try store.replaceTripResults(result, geofences: geofences, calendars: calendars, personDays: personDays, episodes: episodes)
        let publication = TripPublication(
            result.devices, persons: persons, calendars: calendars, bands: bands, privacy: PrivacyParameters(k: minimumPersons),
            geofences: geofences.count)
        var tables = TripTables(
            result: result, geofences: geofences, calendars: calendars, persons: persons, publication: publication,
            personDays: personDays)
        (tables.locationParameters, tables.bands, tables.emissionFactors) = (parameters.locations, bands, emissionFactors)
        // Each leg's country is looked up once (a country's polygon may have thousands of vertices).
        let countries = result.devices.map { legCountries.countries(of: $0, calendar: calendars.device($0.device)) }
        tables.legCountries = countries
        summary.co2eCountries = legCountries.tally(countries.flatMap { $0 }, factors: emissionFactors)
        // The whole line comes with publish's CO2e (`CO2eOutput.text`); a warning is said at once.
        if let warning = summary.co2eCountries?.warning { progress.log("warning: " + warning) }
        summary.odMatrix = ODMatrixCounts(publication.odMatrix)
        progress.log(summary.odMatrix.line)
        try store.setDerivedState(PipelineStore.minimumPersonsKey, String(minimumPersons))
        try store.setDerivedState(PipelineStore.odMatrixKey, summary.odMatrix.line)
        summary.modalSplit = ModalSplitCounts(publication.modalSplit)
        progress.log(summary.modalSplit.line)
        try store.setDerivedState(PipelineStore.modalSplitKey, summary.modalSplit.line)
        try store.setDerivedState(PipelineStore.splitMarginsKey, try publication.margins.text())
        try store.setDerivedState(PipelineStore.tripFiguresKey, try TripFigures(publication, store: store).text()) // for the report
        let punctuality = try publishPunctuality(result.devices, persons: persons, store: store, progress: progress)
        summary.punctuality = transit == nil ? nil : punctuality.counts
        let restricted = restrictedFolder ?? OutputLayout.restricted(in: reportsFolder)
        if writesFiles {
            if restrictedFolder == nil { try OutputLayout.prepareRestricted(in: reportsFolder) }
            try tables.write(to: reportsFolder, restricted: restricted)
            try TripGeoJSON(result: result, geofences: geofences).write(to: restricted)
            try PunctualityOutput.write(punctuality, to: reportsFolder)
        }
        if let partialsFolder {
            for table in tables.partialTables() { try table.write(to: partialsFolder) }
        }
        try store.finishRun(id: runID, counts: RunCounts())
        summary.secondsWriting = lap()
        summary.staypoints = result.devices.reduce(0) { $0 + $1.staypoints.count }
        summary.dwells = result.devices.reduce(0) { $0 + $1.dwells.count }
        summary.locations = result.locations.count
        summary.triplegs = result.devices.reduce(0) { $0 + $1.triplegs.count }
        summary.trips = result.devices.reduce(0) { $0 + $1.trips.count }
        summary.tripEnds = result.tripEnds
        progress.log(summary.tripEnds.text)
        for leg in result.devices.flatMap(\.triplegs) { summary.legsByModeSource[leg.modeSource?.rawValue ?? "none", default: 0] += 1 }
        summary.jumps = result.devices.flatMap(\.triplegs).filter { $0.modeSource == .plausibility && $0.mode == nil }.count
        if let warning = summary.jumpWarning { progress.log("warning: " + warning) }
        summary.stillLegsInNoTrip = result.devices.flatMap(\.triplegs).filter { $0.trip == nil && !$0.notATrip }.count
        if summary.stillLegsInNoTrip > 0 {
            progress.log(
                "trips: \(summary.stillLegsInNoTrip) still legs between stays made no trip, no leg of theirs moved (a phone at rest "
                    + "that no staypoint closed, as a gap or the end of its file came first; triplegs.csv: trip_id empty)")
        }
        for leg in result.devices.flatMap(\.triplegs) where leg.mode == nil && leg.modeSource == nil {
            summary.undecidedLegs += 1
            summary.undecidedMeters += leg.distanceMeters
            summary.undecidedSeconds += leg.durationSeconds
        }
        if let warning = summary.undecidedWarning { progress.log("warning: " + warning) }
        summary.fusion = FusionTally(result.devices.flatMap(\.triplegs))
        if let line = summary.fusion.line { progress.log(line) }
        if let transit {
            let matched = result.devices.flatMap(\.triplegs).compactMap { leg in leg.evidence?.transit.map { (leg.startSeconds, $0) } }
            summary.legsNearTransit =
                matched.filter { _, match in
                    [match.startMeters, match.endMeters].contains { $0.values.contains { $0 < TransitIndex.maxSearchMeters } }
                }.count
            summary.transit = transit.uses(legs: matched)
            for use in summary.transit { progress.log(use.line) }
            if let warning = summary.transitWarning { progress.log("warning: " + warning) }
        }
        let several = summary.transit.count > 1
        // The description is published; the counts are of legs, not of k persons, so they go to the operator's page only.
        try store.setTransitUse(
            description: transit == nil ? "" : (transitDescription ?? "a transit feed"),
            legs: transit == nil
                ? ""
                : "\(summary.legsNearTransit ?? 0) of \(summary.triplegs) triplegs start or end within 2 km of \(several ? "their" : "its") "
                    + "stops, \(summary.legsByModeSource["transit"] ?? 0) named by \(several ? "them" : "it")"
                    + (several ? summary.transit.map { "; \($0.feed): \($0.legsMatched) along its lines" }.joined() : ""))
        summary.files =
            writesFiles
            ? (TripTables.fileNames + [PunctualityOutput.fileName] + TripGeoJSON.fileNames).map { file in
                ((OutputLayout.restrictedFiles.contains(file) ? restricted : reportsFolder) as NSString).appendingPathComponent(file)
            } : []
        return summary
    }
}
