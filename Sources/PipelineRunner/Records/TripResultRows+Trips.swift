import MobilityCore
import Store
import Trips

extension TripResultRows {
    /// The rows of `result` with the store's identifiers (`TripIdentifiers`), each dwell with
    /// its geofence's name and kind, and each leg's fixes as a GeoJSON LineString.
    init(_ result: TripAnalysis.Result, geofences: [Geofence]) {
        self.init()
        let fences = Dictionary(geofences.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        let ids = TripIdentifiers(result.devices)
        locations = result.locations.enumerated().map { index, location in
            var row = Location(
                id: TripIdentifiers.location(index), device: location.device, number: location.number,
                latitudeDegrees: location.latitudeDegrees, longitudeDegrees: location.longitudeDegrees,
                staypoints: location.staypoints, devices: location.devices, totalStaySeconds: location.totalStaySeconds)
            (row.purpose, row.purposeMethod, row.purposeScore) = (
                location.purpose?.purpose, location.purpose?.method, location.purpose?.score
            )
            return row
        }
        for (d, device) in result.devices.enumerated() {
            staypoints += device.staypoints.enumerated().map { index, stay in
                var row = Staypoint(
                    id: ids.staypoint(d, index), device: stay.device, startSeconds: stay.startSeconds, endSeconds: stay.endSeconds,
                    durationSeconds: stay.durationSeconds, latitudeDegrees: stay.latitudeDegrees,
                    longitudeDegrees: stay.longitudeDegrees, fixes: stay.fixCount, isOpen: stay.isOpen, isActivity: stay.isActivity,
                    locationID: stay.location.map(TripIdentifiers.location), geofenceID: stay.geofence)
                (row.purpose, row.kind) = (stay.purpose, stay.kind.rawValue)
                return row
            }
            dwells += device.dwells.enumerated().map { index, dwell in
                let fence = fences[dwell.geofenceID]
                return Dwell(
                    id: ids.dwell(d, index), device: dwell.device, geofenceID: dwell.geofenceID,
                    geofenceName: fence?.name ?? dwell.geofenceID, geofenceKind: fence?.kind ?? "zone",
                    entrySeconds: dwell.entrySeconds, exitSeconds: dwell.exitSeconds, durationSeconds: dwell.durationSeconds,
                    fixes: dwell.fixesUsed, closedBy: dwell.closure.rawValue, longestGapSeconds: dwell.longestGapSeconds,
                    latitudeDegrees: dwell.center.latitudeDegrees, longitudeDegrees: dwell.center.longitudeDegrees)
            }
            let location = { (staypoint: Int?) in staypoint.flatMap { device.staypoints[$0].location }.map(TripIdentifiers.location) }
            trips += device.trips.enumerated().map { index, trip in
                var row = Trip(
                    id: ids.trip(d, index), device: trip.device, startSeconds: trip.startSeconds, endSeconds: trip.endSeconds,
                    durationSeconds: trip.durationSeconds, distanceMeters: trip.distanceMeters, mainMode: trip.mainMode?.rawValue,
                    legs: trip.legs.count, originStaypointID: trip.originStaypoint.map { ids.staypoint(d, $0) },
                    destinationStaypointID: trip.destinationStaypoint.map { ids.staypoint(d, $0) },
                    originLocationID: location(trip.originStaypoint), destinationLocationID: location(trip.destinationStaypoint),
                    originGeofenceID: trip.originGeofence, destinationGeofenceID: trip.destinationGeofence)
                (row.originPurpose, row.destinationPurpose, row.tripPurpose) = PlacePurposes.ends(of: trip, in: device)
                (row.originKind, row.destinationKind) = (trip.origin?.kind.rawValue, trip.destination?.kind.rawValue)
                row.origin = trip.origin.map { ($0.latitudeDegrees, $0.longitudeDegrees) }
                row.destination = trip.destination.map { ($0.latitudeDegrees, $0.longitudeDegrees) }
                return row
            }
            triplegs += device.triplegs.enumerated().map { index, leg in
                Tripleg(
                    id: ids.tripleg(d, index), device: leg.device, tripID: leg.trip.map { ids.trip(d, $0) },
                    startSeconds: leg.startSeconds, endSeconds: leg.endSeconds, durationSeconds: leg.durationSeconds,
                    distanceMeters: leg.distanceMeters, mode: leg.mode?.rawValue, modeSource: leg.modeSource?.rawValue, fixes: leg.fixCount,
                    previousStaypointID: leg.previousStaypoint.map { ids.staypoint(d, $0) },
                    nextStaypointID: leg.nextStaypoint.map { ids.staypoint(d, $0) },
                    geometryGeoJSON: device.lineText(ofLeg: index), // as kept (spooled: read as its row is written)
                    imuAnswer: leg.evidence?.imuAnswer?.rawValue, gpsLegModelAnswer: leg.evidence?.gpsLegModelAnswer?.rawValue)
            }
        }
    }
}

extension PipelineStore {
    /// Replaces the store's trip results with `result` (see `replaceTripResults(_: TripResultRows)`).
    func replaceTripResults(
        _ result: TripAnalysis.Result, geofences: [Geofence], calendars: LocalCalendars = LocalCalendars(), personDays: PersonDays? = nil,
        episodes: [DiaryEpisode] = []
    ) throws {
        var rows = TripResultRows(result, geofences: geofences)
        for (device, zone) in calendars.devices.sorted(by: { $0.key < $1.key }) {
            rows.deviceZones += zone.calendar.zoneChanges.map { change in
                TripResultRows.DeviceZone(
                    device: device, startSeconds: change.startSeconds.isFinite ? change.startSeconds : nil, zone: change.zone,
                    source: zone.source)
            }
        }
        rows.episodes = episodes.map {
            TripResultRows.Episode(
                person: $0.person, date: $0.date, kind: $0.kind.rawValue, startSeconds: $0.startSeconds, endSeconds: $0.endSeconds,
                device: $0.device, staypointID: $0.staypointID, tripID: $0.tripID, triplegID: $0.triplegID, purpose: $0.purpose,
                mode: $0.mode, latitudeDegrees: $0.latitudeDegrees, longitudeDegrees: $0.longitudeDegrees)
        }
        for day in personDays?.days ?? [] {
            rows.personDays.append(
                TripResultRows.PersonDay(
                    person: day.person, date: day.date, zone: day.zone, startSeconds: day.startSeconds, endSeconds: day.endSeconds,
                    trackedSeconds: day.trackedSeconds, fixes: day.fixes, imuSeconds: day.imuSeconds, valid: day.valid))
            rows.untracked += day.untracked.map {
                TripResultRows.Untracked(person: day.person, date: day.date, startSeconds: $0.startSeconds, endSeconds: $0.endSeconds)
            }
        }
        try replaceTripResults(rows)
    }

    /// Each device's and person's local time as the last trip stage decided it (`device_zones`);
    /// `dataset` for what belongs to no device, and for devices the stage has not seen.
    public func localCalendars(dataset: CalendarKeys) throws -> LocalCalendars {
        DeviceZone.calendars(
            stored: try deviceZones().map { ($0.device, $0.startSeconds, $0.zone, $0.source) },
            persons: try devicePersons(),
            dataset: dataset)
    }

    /// Every timed fix of the ingested files, as one sorted track per device (or per file).
    public func tracks(groupedBy grouping: TrackGrouping = .device) throws -> [DeviceTrack] {
        try trackPoints(groupedBy: grouping).map { DeviceTrack(device: $0.name, points: $0.points) }
    }

    /// One device's (or file's) timed fixes as a sorted track.
    func track(named name: String, groupedBy grouping: TrackGrouping = .device) throws -> DeviceTrack {
        DeviceTrack(device: name, points: try trackPoints(named: name, groupedBy: grouping))
    }
}
