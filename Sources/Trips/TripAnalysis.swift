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
    /// The device's fixes; after `compacted()`, only those of its legs.
    public var track: DeviceTrack
    public var staypoints: [Staypoint]
    public var dwells: [GeofenceDwell]
    public var triplegs: [Tripleg]
    public var trips: [Trip]
    /// What the device statistics need from the whole track.
    public var observed: ObservedTime

    public init(track: DeviceTrack, staypoints: [Staypoint], dwells: [GeofenceDwell], triplegs: [Tripleg], trips: [Trip]) {
        (self.track, self.staypoints, self.dwells, self.triplegs, self.trips) = (track, staypoints, dwells, triplegs, trips)
        observed = ObservedTime(track)
    }

    /// The same results holding only the fixes the outputs still need (the legs', for their
    /// geometry), so a run over many devices keeps one device's full track at a time. Leg
    /// indices are renumbered into the smaller track; staypoint and dwell indices no longer
    /// point into it (their counts, times, positions and centres are kept).
    public func compacted() -> DeviceTrips {
        // The runs of fixes the legs cover, in order (legs sorted by their first fix; a leg may
        // share fixes with the one before). A fix's new index is its run's new start plus its
        // offset in the run: no table per fix (a dictionary of them held 101 MB for a device's
        // 1.6 M fixes).
        var runs: [(old: ClosedRange<Int>, new: Int)] = []
        var next = 0, kept = 0
        for leg in triplegs.filter({ !$0.byTime }).sorted(by: { $0.firstFix < $1.firstFix }) where max(leg.firstFix, next) <= leg.lastFix {
            let first = max(leg.firstFix, next)
            if let last = runs.last, last.old.upperBound + 1 == first {
                runs[runs.count - 1].old = last.old.lowerBound...leg.lastFix
            } else {
                runs.append((first...leg.lastFix, kept))
            }
            kept += leg.lastFix - first + 1
            next = leg.lastFix + 1
        }
        var copy = self
        // Legs over every fix (one long leg) keep the track as it is, not a copy of it.
        if runs.count == 1, runs[0].old == 0...(track.points.count - 1) { return copy }
        func renumbered(_ old: Int) -> Int {
            // The last run that starts at `old` or before.
            let run = runs[runs.firstIndex(notBelow: Double(old) + 0.5) { Double($0.old.lowerBound) } - 1]
            precondition(run.old.contains(old), "a leg's fix outside the legs' runs")
            return run.new + old - run.old.lowerBound
        }
        for index in copy.triplegs.indices where !triplegs[index].byTime {
            copy.triplegs[index].firstFix = renumbered(triplegs[index].firstFix)
            copy.triplegs[index].lastFix = renumbered(triplegs[index].lastFix)
        }
        var points: [TrackPoint] = []
        points.reserveCapacity(kept)
        for run in runs { points += track.points[run.old] }
        copy.track = DeviceTrack(device: track.device, sortedUniquePoints: points)
        return copy
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

    /// Each track's stages, one device per core, in the tracks' order (for callers that feed
    /// devices in batches and hand the collected results to `result(_:)`).
    /// `legs`, when given, revisits the device's triplegs as wholes (their modes and evidence)
    /// before trips are made of them.
    public func analyseConcurrently(
        _ tracks: [DeviceTrack], geofences: [Geofence],
        modes: @escaping @Sendable (DeviceTrack, [Staypoint]) -> ModeTimeline,
        legs: (@Sendable (DeviceTrack, inout [Tripleg]) -> Void)? = nil
    ) -> [DeviceTrips] {
        let slots = ConcurrentSlots<DeviceTrips>(count: tracks.count)
        Jobs.perform(tracks.count) { index in
            slots.store(analyse(tracks[index], geofences: geofences, modes: modes, legs: legs), at: index)
        }
        return slots.values
    }

    /// Sorts devices and clusters their staypoints into locations.
    public func result(_ devices: [DeviceTrips]) -> Result {
        var sorted = devices.sorted { $0.device < $1.device }
        let locations = assignLocations(&sorted)
        return Result(devices: sorted, locations: locations)
    }

    public func analyse(_ track: DeviceTrack, geofences: [Geofence], modes: ModeTimeline) -> DeviceTrips {
        analyse(track, geofences: geofences) { _, _ in modes }
    }

    public func analyse(
        _ track: DeviceTrack, geofences: [Geofence], modes: (DeviceTrack, [Staypoint]) -> ModeTimeline,
        legs: ((DeviceTrack, inout [Tripleg]) -> Void)? = nil
    ) -> DeviceTrips {
        var staypoints = StaypointDetector(parameters: parameters.staypoints, ridesAcrossGap: ridesAcrossGap).detect(track)
        let dwells = DwellDetector(parameters: parameters.dwells).detect(track, geofences: geofences)
        let builder = TripBuilder(parameters: parameters.trips)
        builder.annotate(&staypoints, dwells: dwells)
        let timeline = modes(track, staypoints)
        var triplegs = TriplegBuilder(parameters: parameters.trips).build(track, staypoints: staypoints, modes: timeline)
        legs?(track, &triplegs)
        let trips = builder.build(staypoints: staypoints, triplegs: &triplegs)
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
