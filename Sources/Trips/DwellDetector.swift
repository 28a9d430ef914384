import MobilityCore

/// Entries into and exits from geofences, per device and geofence, with hysteresis.
///
/// A state machine over the device's fixes in time order:
/// - *outside*: a run of consecutive fixes inside the fence (no gap over `maxGapSeconds`)
///   confirms an entry once it has `enterFixes` fixes or spans `enterSeconds`; the entry time
///   is the run's first fix;
/// - *inside*: a fix counts as outside only when it lies farther out than its own accuracy
///   (capped at `maxAccuracyBufferMeters`); outside fixes spanning `exitSeconds` confirm the
///   exit, and a fix back inside before that cancels it (a GPS excursion is not an exit);
///   a time without fixes over `maxGapSeconds` closes the dwell; the exit time is the last
///   fix inside;
/// - dwells shorter than `minimumDwellSeconds` are dropped (a pass-through is not a dwell).
///
/// Geofences are independent: overlapping fences each get their own dwells.
///
/// - Complexity: O(n · f) containment tests for n fixes and f geofences, each O(1) for
///   circles and O(v) for polygons; fixes outside a fence's bounding box skip the test.
public struct DwellDetector: Sendable {
    public var parameters: DwellParameters

    public init(parameters: DwellParameters = DwellParameters()) {
        self.parameters = parameters
    }

    public func detect(_ track: DeviceTrack, geofences: [Geofence]) -> [GeofenceDwell] {
        geofences.flatMap { detect(track, geofence: $0) }.sorted { ($0.entrySeconds, $0.geofenceID) < ($1.entrySeconds, $1.geofenceID) }
    }

    public func detect(_ track: DeviceTrack, geofence: Geofence) -> [GeofenceDwell] {
        let points = track.points
        let box = FenceBox(geofence, marginMeters: parameters.maxAccuracyBufferMeters)
        var dwells: [GeofenceDwell] = []
        var candidateStart: Int?
        var candidateFixes = 0
        var open: GeofenceDwell?
        var outsideSince: Int?

        func close(_ closure: GeofenceDwell.Closure) {
            if var dwell = open, dwell.durationSeconds >= parameters.minimumDwellSeconds {
                dwell.closure = closure
                dwell.center = track.meanPosition(dwell.firstFix...dwell.lastFix)
                dwells.append(dwell)
            }
            open = nil
            outsideSince = nil
        }

        for (index, point) in points.enumerated() {
            let gap = track.secondsBefore(index)
            if gap > parameters.maxGapSeconds {
                if open != nil { close(.gap) }
                candidateStart = nil
            }
            if var dwell = open {
                if isInside(point, geofence, box, buffered: true) {
                    dwell.lastFix = index
                    dwell.exitSeconds = point.timeSeconds
                    dwell.fixesUsed += 1
                    dwell.longestGapSeconds = max(dwell.longestGapSeconds, gap)
                    open = dwell
                    outsideSince = nil
                } else if let since = outsideSince {
                    if point.timeSeconds - points[since].timeSeconds >= parameters.exitSeconds { close(.exit) }
                } else {
                    outsideSince = index
                }
                if open != nil { continue }
            }
            guard isInside(point, geofence, box, buffered: false) else {
                candidateStart = nil
                continue
            }
            if candidateStart == nil { candidateStart = index; candidateFixes = 0 }
            candidateFixes += 1
            let start = candidateStart!
            if candidateFixes >= parameters.enterFixes
                || point.timeSeconds - points[start].timeSeconds >= parameters.enterSeconds
            {
                open = GeofenceDwell(
                    device: track.device, geofenceID: geofence.id, geofenceKind: geofence.kind, entrySeconds: points[start].timeSeconds,
                    exitSeconds: point.timeSeconds, fixesUsed: candidateFixes, firstFix: start,
                    lastFix: index, closure: .trackEnd,
                    longestGapSeconds: (start..<index).map { track.secondsBefore($0 + 1) }.max() ?? 0)
                candidateStart = nil
            }
        }
        close(.trackEnd)
        return dwells
    }

    private func isInside(_ point: TrackPoint, _ fence: Geofence, _ box: FenceBox, buffered: Bool) -> Bool {
        guard box.mayContain(point) else { return false }
        if !buffered {
            return GeofenceContainment.contains(fence, latitudeDegrees: point.latitudeDegrees, longitudeDegrees: point.longitudeDegrees)
        }
        let buffer = point.accuracyMeters.isNaN ? 0 : min(point.accuracyMeters, parameters.maxAccuracyBufferMeters)
        return GeofenceContainment.distanceOutsideMeters(
            fence, latitudeDegrees: point.latitudeDegrees,
            longitudeDegrees: point.longitudeDegrees) <= buffer
    }
}
