import MobilityCore

/// Trips as trackintel's `generate_trips` defines them: a trip is everything (triplegs and
/// non-activity staypoints) between two activity staypoints, cut where the time between two
/// consecutive elements exceeds `gapSeconds`; a trip needs at least one tripleg, and one that
/// is not `still` (legs at rest alone are no travel).
///
/// An activity is a staypoint of `activityMinimumSeconds` or longer, or one that overlaps a
/// geofence dwell of the same device (a short stop at the shop is still a destination), except
/// in transfer geofences such as stations (`transferKinds`: waiting for a train is part of the
/// trip). A stay shorter than `transferMaximumSeconds` between a public-transport leg that
/// ends and one that starts within `transferWalkSeconds` of it is a change of vehicle, not an
/// activity, where no geofence of another kind says it is one (`isTransfer`). Its
/// origin and destination geofences are the dwell that overlaps the activity staypoint most.
///
/// - Complexity: O((s + t) log(s + t)) for s staypoints and t triplegs, plus O(s · d) for
///   the d dwells when matching geofences.
public struct TripBuilder: Sendable {
    public var parameters: TripParameters

    public init(parameters: TripParameters = TripParameters()) {
        self.parameters = parameters
    }

    /// Sets each staypoint's `geofence` (the dwell overlapping it longest) and `isActivity`;
    /// `triplegs` (the device's, with their modes) tell a change of vehicle (`isTransfer`).
    public func annotate(_ staypoints: inout [Staypoint], dwells: [GeofenceDwell], triplegs: [Tripleg] = []) {
        let riding = triplegs.filter { $0.mode.map(Self.publicTransport.contains) ?? false }
        let publicTransport = (ends: riding.map(\.endSeconds).sorted(), starts: riding.map(\.startSeconds).sorted())
        for index in staypoints.indices {
            let stay = staypoints[index]
            let dwell = dwellOverlapping(stay, dwells)
            staypoints[index].geofence = dwell?.geofenceID
            staypoints[index].isActivity =
                (stay.durationSeconds >= parameters.activityMinimumSeconds && !isTransfer(stay, publicTransport))
                || (dwell.map { !parameters.transferKinds.contains($0.geofenceKind) } ?? false)
        }
    }

    /// The modes whose legs a change of vehicle lies between: a bus, train or boat runs to its
    /// timetable, so its rider waits for it; a car or bike leaves when its rider does. A
    /// `vehicle` leg (its type out of reach of the evidence) may be any of them, so a short
    /// wait beside one is a change of vehicle too: the trip is not cut where the type is unknown.
    static let publicTransport: Set<Mode> = [.bus, .train, .boat, .vehicle]

    /// Whether `stay` is a change of vehicle: shorter than `transferMaximumSeconds`, with a
    /// public-transport leg ending within `transferWalkSeconds` before it and another starting
    /// within as long after it (`legs`: their end and start times, sorted; 1 s of slack where
    /// a leg and a stay share their boundary fix). O(log t) for t legs.
    func isTransfer(_ stay: Staypoint, _ legs: (ends: [Double], starts: [Double])) -> Bool {
        guard stay.durationSeconds < parameters.transferMaximumSeconds else { return false }
        func any(_ times: [Double], in range: ClosedRange<Double>) -> Bool {
            var (low, high) = (0, times.count) // the first time at or after the range's start
            while low < high {
                let middle = (low + high) / 2
                if times[middle] < range.lowerBound { low = middle + 1 } else { high = middle }
            }
            return low < times.count && times[low] <= range.upperBound
        }
        let walk = parameters.transferWalkSeconds
        return any(legs.ends, in: (stay.startSeconds - walk)...(stay.startSeconds + 1))
            && any(legs.starts, in: (stay.endSeconds - 1)...(stay.endSeconds + walk))
    }

    /// Builds the trips from annotated staypoints and sets each leg's `trip`. `fix(leg, first)`
    /// is leg `leg`'s first (or last) fix, the end of a trip without a stay there (nil for a leg
    /// by time, which has none: the next leg with a fix gives it).
    public func build(
        staypoints: [Staypoint], triplegs: inout [Tripleg], fix: (_ leg: Int, _ first: Bool) -> GeoPoint? = { _, _ in nil }
    ) -> [Trip] {
        enum Element { case stay(Int), leg(Int) }
        var elements: [(start: Double, end: Double, element: Element)] =
            staypoints.indices.map { (staypoints[$0].startSeconds, staypoints[$0].endSeconds, .stay($0)) }
        elements += triplegs.indices.map { (triplegs[$0].startSeconds, triplegs[$0].endSeconds, .leg($0)) }
        elements.sort { ($0.start, $0.end) < ($1.start, $1.end) }

        var trips: [Trip] = []
        var legs: [Int] = []
        var first: Double?, last = 0.0
        var origin: Int?
        var previousEnd: Double?

        func end(_ stay: Int?, _ point: GeoPoint?, _ kind: TripEnd.Kind) -> TripEnd? {
            if let stay { return TripEnd(stay: staypoints[stay], activityMinimumSeconds: parameters.activityMinimumSeconds) }
            return point.map { TripEnd(kind: kind, latitudeDegrees: $0.latitudeDegrees, longitudeDegrees: $0.longitudeDegrees) }
        }

        func firstFix(_ legs: some Sequence<Int>, first: Bool) -> GeoPoint? {
            for leg in legs { if let point = fix(leg, first) { return point } }
            return nil
        }
        func finish(destination: Int?) {
            defer { legs = []; first = nil }
            guard let start = first, !legs.isEmpty else { return }
            // Nobody travelled: a piece of still legs alone (a stationary phone that no staypoint
            // closed, as a gap or the end of its file came first) is no trip; its legs are in none.
            guard legs.contains(where: { triplegs[$0].mode != .still }) else { return }
            let tripNumber = trips.count
            for leg in legs { triplegs[leg].trip = tripNumber }
            trips.append(
                Trip(
                    device: triplegs[legs[0]].device, startSeconds: start, endSeconds: last,
                    distanceMeters: legs.reduce(0) { $0 + triplegs[$1].distanceMeters },
                    mainMode: Self.mainMode(legs.map { triplegs[$0] }), legs: legs,
                    originStaypoint: origin, destinationStaypoint: destination,
                    originGeofence: origin.flatMap { staypoints[$0].geofence },
                    destinationGeofence: destination.flatMap { staypoints[$0].geofence },
                    origin: end(origin, firstFix(legs, first: true), .firstFix),
                    destination: end(destination, firstFix(legs.reversed(), first: false), .lastFix)))
        }

        for item in elements {
            if let previousEnd, item.start - previousEnd > parameters.gapSeconds {
                finish(destination: nil)
                origin = nil
            }
            switch item.element {
            case .stay(let index) where staypoints[index].isActivity:
                finish(destination: index)
                origin = index
            case .stay:
                if first == nil { first = item.start }
                last = item.end
            case .leg(let index) where triplegs[index].notATrip:
                break // its person said it was no travel: part of the stay around it, in no trip
            case .leg(let index):
                if first == nil { first = item.start }
                last = item.end
                legs.append(index)
            }
            previousEnd = item.end
        }
        finish(destination: nil)
        return trips
    }

    /// The dwell that overlaps the staypoint longest.
    func dwellOverlapping(_ stay: Staypoint, _ dwells: [GeofenceDwell]) -> GeofenceDwell? {
        var best: (dwell: GeofenceDwell, seconds: Double)?
        for dwell in dwells where dwell.device == stay.device {
            let overlap = min(stay.endSeconds, dwell.exitSeconds) - max(stay.startSeconds, dwell.entrySeconds)
            if overlap > 0, overlap > best?.seconds ?? 0 { best = (dwell, overlap) }
        }
        return best?.dwell
    }

    /// The mode with the longest distance, then the longest time; `still` is no travel mode
    /// (its distance is the drift of fixes at rest), so never a trip's main mode.
    static func mainMode(_ legs: [Tripleg]) -> Mode? {
        var totals: [Mode: (distance: Double, seconds: Double)] = [:]
        for leg in legs {
            guard let mode = leg.mode, mode != .still else { continue }
            totals[mode, default: (0, 0)].distance += leg.distanceMeters
            totals[mode, default: (0, 0)].seconds += leg.durationSeconds
        }
        return totals.max { a, b in
            (a.value.distance, a.value.seconds, b.key) < (b.value.distance, b.value.seconds, a.key)
        }?.key
    }
}
