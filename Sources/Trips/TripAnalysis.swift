import Foundation
import MobilityCore

/// Every trip stage's parameters, with their defaults.
public struct TripStageParameters: Hashable, Sendable, Codable {
    public var staypoints = StaypointParameters()
    public var dwells = DwellParameters()
    public var locations = LocationParameters()
    public var trips = TripParameters()

    public init() {}
}

/// One device's staypoints, dwells, triplegs and trips; indices in them point into this
/// value's own arrays (a leg's fixes into `track.points`, a trip's legs into `triplegs`).
public struct DeviceTrips: Sendable {
    /// The device's fixes; after `compacted()`, none (the legs' lines are kept instead).
    public var track: DeviceTrack
    public var staypoints: [Staypoint]
    public var dwells: [GeofenceDwell]
    public var triplegs: [Tripleg]
    public var trips: [Trip]
    /// What the device statistics need from the whole track.
    public var observed: ObservedTime
    /// After `compacted()`, each leg's line (`DeviceTrack.lineStringGeoJSON`), in memory or in
    /// a spool (`TrackPieceAnalysis.lineSpool`), nil for a leg by time; before, nil, and the
    /// lines are made from the track.
    public private(set) var lines: [SpooledText?]?
    /// After `compacted()`, each leg's first fix (nil for a leg by time); before, nil, and the
    /// track gives it.
    private var starts: [GeoPoint?]?

    public init(track: DeviceTrack, staypoints: [Staypoint], dwells: [GeofenceDwell], triplegs: [Tripleg], trips: [Trip]) {
        (self.track, self.staypoints, self.dwells, self.triplegs, self.trips) = (track, staypoints, dwells, triplegs, trips)
        observed = ObservedTime(track)
    }

    /// Compacted results made without the track in hand (`TrackPieceAnalysis`).
    init(
        device: String, staypoints: [Staypoint], dwells: [GeofenceDwell], triplegs: [Tripleg], trips: [Trip], observed: ObservedTime,
        lines: [SpooledText?], starts: [GeoPoint?]
    ) {
        track = DeviceTrack(device: device, sortedUniquePoints: [])
        (self.staypoints, self.dwells, self.triplegs, self.trips, self.observed) = (staypoints, dwells, triplegs, trips, observed)
        (self.lines, self.starts) = (lines, starts)
    }

    /// The same results holding only what the outputs still need of the track: each leg's line
    /// as GeoJSON text (about 21 bytes a fix, where a fix is 32), so a run over many devices
    /// keeps one device's track at a time, and a track that is one long leg is let go before
    /// its line is written to the store (SQLite copies a value into its row: the track, the
    /// line and that copy were 2.3 GB for a year at 1 Hz). Leg, staypoint and dwell indices no
    /// longer point into the track (their counts, times, positions and centres are kept).
    public func compacted() -> DeviceTrips {
        var copy = self
        copy.lines = triplegs.map { leg in leg.byTime ? nil : .inMemory(track.lineStringGeoJSON(leg.firstFix...leg.lastFix)) }
        copy.starts = triplegs.indices.map(start(ofLeg:))
        copy.track = DeviceTrack(device: track.device, sortedUniquePoints: [])
        return copy
    }

    /// Leg `index`'s line (not a leg by time's), written to `output`: from the kept text once
    /// compacted (a spooled one a block at a time), else from the track point by point.
    public func writeLine(ofLeg index: Int, to output: inout some TextOutputStream) throws {
        if let lines {
            try lines[index]!.write(to: &output)
        } else {
            track.writeLineStringGeoJSON(triplegs[index].firstFix...triplegs[index].lastFix, to: &output)
        }
    }

    /// Leg `index`'s line as GeoJSON text (an empty line for a leg by time), as kept: a
    /// spooled line stays in its spool until it is read.
    public func lineText(ofLeg index: Int) -> SpooledText {
        if triplegs[index].byTime { return .inMemory(DeviceTrack.emptyLineStringGeoJSON) }
        return lines?[index] ?? .inMemory(track.lineStringGeoJSON(triplegs[index].firstFix...triplegs[index].lastFix))
    }

    /// Leg `index`'s line as GeoJSON text (an empty line for a leg by time).
    public func line(ofLeg index: Int) throws -> String { try lineText(ofLeg: index).string() }

    /// Where leg `index` began: its first fix; nil for a leg by time, which has no fix.
    public func start(ofLeg index: Int) -> GeoPoint? {
        if let starts { return starts[index] }
        let leg = triplegs[index]
        guard !leg.byTime, track.points.indices.contains(leg.firstFix) else { return nil }
        let fix = track.points[leg.firstFix]
        return GeoPoint(longitudeDegrees: fix.longitudeDegrees, latitudeDegrees: fix.latitudeDegrees)
    }

    public var isActivity: [Bool] { staypoints.map(\.isActivity) }

    public var device: String { track.device }
}

/// The trip stages over all devices: per device (independently, on all cores) staypoints,
/// geofence dwells, triplegs and trips; then locations over the staypoints of the scope.
public struct TripAnalysis: Sendable {
    public var parameters: TripStageParameters
    /// Gaps between fixes that were rides (`StaypointDetector.ridesAcrossGap`); nil without a transit feed.
    public var ridesAcrossGap: (@Sendable (TrackPoint, TrackPoint) -> Bool)?

    public init(parameters: TripStageParameters = TripStageParameters()) {
        self.parameters = parameters
    }

    public struct Result: Sendable {
        /// Sorted by device.
        public var devices: [DeviceTrips]
        public var locations: [Location]

        /// How the trips' ends were placed, and the stays across gaps.
        public var tripEnds: TripEnd.Tally {
            let trips = devices.flatMap(\.trips)
            return TripEnd.Tally(
                origins: trips.map { $0.origin?.kind.rawValue }, destinations: trips.map { $0.destination?.kind.rawValue },
                gapStays: devices.reduce(0) { $0 + $1.staypoints.filter { $0.kind == .gap }.count })
        }
    }

    public func run(tracks: [DeviceTrack], geofences: [Geofence], modes: [String: ModeTimeline]) -> Result {
        run(tracks: tracks, geofences: geofences) { track, _ in modes[track.device] ?? .empty }
    }

    /// `modes` gives a device's timeline once its staypoints are known (so a classifier can
    /// skip the fixes no leg is made of); it runs on the device's worker thread.
    public func run(
        tracks: [DeviceTrack], geofences: [Geofence],
        modes: @escaping @Sendable (DeviceTrack, [Staypoint]) -> ModeTimeline
    ) -> Result {
        result(analyseConcurrently(tracks, geofences: geofences, modes: modes))
    }

    /// Each track's stages, one device per core, in the tracks' order. (`TripsRun` reads each
    /// device from the store in pieces instead, `TrackPieceAnalysis`.)
    private func analyseConcurrently(
        _ tracks: [DeviceTrack], geofences: [Geofence], modes: @escaping @Sendable (DeviceTrack, [Staypoint]) -> ModeTimeline
    ) -> [DeviceTrips] {
        let slots = ConcurrentSlots<DeviceTrips>(count: tracks.count)
        Jobs.perform(tracks.count) { index in
            slots.store(analyse(tracks[index], geofences: geofences, modes: modes), at: index)
        }
        return slots.values
    }

    /// Sorts devices and clusters their staypoints into locations.
    public func result(_ devices: [DeviceTrips]) -> Result {
        var sorted = devices.sorted { $0.device < $1.device }
        let locations = assignLocations(&sorted)
        return Result(devices: sorted, locations: locations)
    }

    /// The staypoint detection of these parameters.
    var staypointDetector: StaypointDetector { StaypointDetector(parameters: parameters.staypoints, ridesAcrossGap: ridesAcrossGap) }

    public func analyse(_ track: DeviceTrack, geofences: [Geofence], modes: ModeTimeline) -> DeviceTrips {
        analyse(track, geofences: geofences) { _, _ in modes }
    }

    public func analyse(
        _ track: DeviceTrack, geofences: [Geofence], modes: (DeviceTrack, [Staypoint]) -> ModeTimeline,
        legs: ((DeviceTrack, inout [Tripleg]) -> Void)? = nil
    ) -> DeviceTrips {
        var staypoints = staypointDetector.stays(track)
        let dwells = DwellDetector(parameters: parameters.dwells).detect(track, geofences: geofences)
        let builder = TripBuilder(parameters: parameters.trips)
        builder.annotate(&staypoints, dwells: dwells)
        let timeline = modes(track, staypoints)
        var triplegs = TriplegBuilder(parameters: parameters.trips).build(track, staypoints: staypoints, modes: timeline)
        legs?(track, &triplegs)
        builder.annotate(&staypoints, dwells: dwells, triplegs: triplegs) // a change of vehicle needs the legs' modes
        let fixes = triplegs.map { $0.byTime ? nil : SIMD2($0.firstFix, $0.lastFix) }
        let trips = builder.build(staypoints: staypoints, triplegs: &triplegs) { leg, first in
            guard let range = fixes[leg] else { return nil }
            let fix = track.points[first ? range[0] : range[1]]
            return GeoPoint(longitudeDegrees: fix.longitudeDegrees, latitudeDegrees: fix.latitudeDegrees)
        }
        return DeviceTrips(track: track, staypoints: staypoints, dwells: dwells, triplegs: triplegs, trips: trips)
    }

    /// Clusters all staypoints at once and hands each device its staypoints' locations back.
    private func assignLocations(_ devices: inout [DeviceTrips]) -> [Location] {
        var all = devices.flatMap(\.staypoints)
        let locations = LocationClusterer(parameters: parameters.locations).cluster(&all)
        var offset = 0
        for index in devices.indices {
            let count = devices[index].staypoints.count
            devices[index].staypoints = Array(all[offset..<offset + count])
            offset += count
        }
        return locations
    }
}
