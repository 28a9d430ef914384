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
        var scan = Scan(self, device: track.device, geofences: geofences)
        scan.feed(track.points.array[...])
        return scan.finish()
    }

    public func detect(_ track: DeviceTrack, geofence: Geofence) -> [GeofenceDwell] {
        var scan = Scan(self, device: track.device, geofences: [geofence])
        scan.feed(track.points.array[...])
        return scan.finish()
    }

    /// The dwells of a device's fixes handed over in pieces, in time order, each fix once: the
    /// same dwells as `detect` on the whole track (a fix's index counts from the first fix of the
    /// first piece), while only the pieces are held. What a dwell needs of fixes already gone
    /// is kept as it runs: the sums its centre divides (added in the fixes' order, so the mean is
    /// `DeviceTrack.meanPosition`'s to the bit), its longest gap and the time outside began.
    public struct Scan: Sendable {
        let detector: DwellDetector
        let device: String
        private var fences: [FenceState]
        /// Fixes fed so far, and the time of the last.
        private var count = 0
        private var lastSeconds = 0.0

        public init(_ detector: DwellDetector, device: String, geofences: [Geofence]) {
            self.detector = detector
            self.device = device
            fences = geofences.map { FenceState(fence: $0, box: FenceBox($0, marginMeters: detector.parameters.maxAccuracyBufferMeters)) }
        }

        /// The next fixes, in time order after every fix fed before.
        public mutating func feed(_ points: ArraySlice<TrackPoint>) {
            guard !points.isEmpty else { return }
            // A static step, given what it reads of self: a method on self would copy self (and
            // with it the fences) for every fix while one fence is written.
            let (detector, device) = (self.detector, self.device)
            for fence in fences.indices {
                var index = count, previous = lastSeconds
                for point in points {
                    let gap = index == 0 ? 0 : point.timeSeconds - previous
                    Self.step(&fences[fence], point, index: index, gap: gap, detector: detector, device: device)
                    previous = point.timeSeconds
                    index += 1
                }
            }
            count += points.count
            lastSeconds = points.last!.timeSeconds
        }

        /// Every geofence's dwells, by entry time then geofence (a dwell still open ends with the track).
        public mutating func finish() -> [GeofenceDwell] {
            let detector = self.detector
            for fence in fences.indices { Self.close(&fences[fence], .trackEnd, detector: detector) }
            return fences.flatMap(\.dwells).sorted { ($0.entrySeconds, $0.geofenceID) < ($1.entrySeconds, $1.geofenceID) }
        }

        /// One geofence's state machine (see the type's comment).
        struct FenceState: Sendable {
            let fence: Geofence
            let box: FenceBox
            var dwells: [GeofenceDwell] = []
            /// The run of consecutive inside fixes not yet an entry: its first fix and time,
            /// its fixes, the sums of their coordinates and its longest gap.
            var candidateStart: Int?
            var candidateStartSeconds = 0.0
            var candidateFixes = 0
            var candidateSums = (latitude: 0.0, longitude: 0.0)
            var candidateGap = 0.0
            var open: GeofenceDwell?
            /// The coordinates' sums from the open dwell's first fix to the last fix fed, and to its last fix inside.
            var runningSums = (latitude: 0.0, longitude: 0.0)
            var insideSums = (latitude: 0.0, longitude: 0.0)
            /// When the fixes outside an open dwell began (nil: the last fix was inside).
            var outsideSinceSeconds: Double?
        }

        private static func close(_ state: inout FenceState, _ closure: GeofenceDwell.Closure, detector: DwellDetector) {
            if var dwell = state.open, dwell.durationSeconds >= detector.parameters.minimumDwellSeconds {
                dwell.closure = closure
                let count = Double(dwell.lastFix - dwell.firstFix + 1)
                dwell.center = GeoPoint(
                    longitudeDegrees: state.insideSums.longitude / count, latitudeDegrees: state.insideSums.latitude / count)
                state.dwells.append(dwell)
            }
            state.open = nil
            state.outsideSinceSeconds = nil
        }

        private static func step(
            _ state: inout FenceState, _ point: TrackPoint, index: Int, gap: Double, detector: DwellDetector, device: String
        ) {
            let parameters = detector.parameters
            if gap > parameters.maxGapSeconds {
                if state.open != nil { close(&state, .gap, detector: detector) }
                state.candidateStart = nil
            }
            if var dwell = state.open {
                state.runningSums.latitude += point.latitudeDegrees
                state.runningSums.longitude += point.longitudeDegrees
                if detector.isInside(point, state.fence, state.box, buffered: true) {
                    dwell.lastFix = index
                    dwell.exitSeconds = point.timeSeconds
                    dwell.fixesUsed += 1
                    dwell.longestGapSeconds = max(dwell.longestGapSeconds, gap)
                    state.open = dwell
                    state.insideSums = state.runningSums
                    state.outsideSinceSeconds = nil
                } else if let since = state.outsideSinceSeconds {
                    if point.timeSeconds - since >= parameters.exitSeconds { close(&state, .exit, detector: detector) }
                } else {
                    state.outsideSinceSeconds = point.timeSeconds
                }
                if state.open != nil { return }
            }
            guard detector.isInside(point, state.fence, state.box, buffered: false) else {
                state.candidateStart = nil
                return
            }
            if state.candidateStart == nil {
                (state.candidateStart, state.candidateStartSeconds, state.candidateFixes) = (index, point.timeSeconds, 0)
                (state.candidateSums, state.candidateGap) = ((0, 0), 0)
            } else {
                state.candidateGap = max(state.candidateGap, gap)
            }
            state.candidateFixes += 1
            state.candidateSums.latitude += point.latitudeDegrees
            state.candidateSums.longitude += point.longitudeDegrees
            if state.candidateFixes >= parameters.enterFixes || point.timeSeconds - state.candidateStartSeconds >= parameters.enterSeconds {
                state.open = GeofenceDwell(
                    device: device, geofenceID: state.fence.id, geofenceKind: state.fence.kind, entrySeconds: state.candidateStartSeconds,
                    exitSeconds: point.timeSeconds, fixesUsed: state.candidateFixes, firstFix: state.candidateStart!,
                    lastFix: index, closure: .trackEnd, longestGapSeconds: state.candidateGap)
                (state.runningSums, state.insideSums) = (state.candidateSums, state.candidateSums)
                state.candidateStart = nil
            }
        }
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
