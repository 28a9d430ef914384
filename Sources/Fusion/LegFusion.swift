import Classify
import Features
import MobilityCore
import Transit
import Trips

/// A tripleg's mode from all its evidence at once, where the windows only ever saw ±30 s:
///
/// 1. **IMU and GPS together** (`LegModeRule`). When IMU windows cover at least
///    `minimumIMUShare` of the leg, the IMU decides the family: on foot, bike or vehicle (the
///    majority of its windows' time: what an accelerometer tells well on any phone). It names
///    no vehicle type: the window model's bus and train were each one TMD user's, and its car
///    was said of every tram and bus ride of a 200 Hz logger (issue 83). The GPS leg model,
///    trained on several cities and calibrated on a data set it never trained on, names the
///    type when its calibrated best type clears the threshold chosen with it and the leg lies
///    within what it learnt from; otherwise the leg is `vehicle`, with the reason in its note.
///    A steady running or slow-cycling pace is never a vehicle. An IMU model that never learnt
///    bike cannot say bike, so bike is then open to the GPS leg model in either family. Source
///    `imu+gps_leg_model` (the IMU's own source, `vehicle`, where no GPS leg model read it).
/// 2. **Transit.** With a feed (`--transit`), a motorised leg (car, bus, train or vehicle by now) is
///    matched as part of its ride: the run of adjacent legs (no staypoint between) that are
///    motorised or still, since a bus's stops cut its ride into legs that alone show no stop.
///    The ride's legs become train when it runs along rail (`railShare` of its fixes within 30 m of a rail corridor)
///    and starts or ends within `nearStationMeters` of a rail stop or stops at one; or when both
///    its ends are that near a rail stop and its fixes stop for `undergroundGapSeconds` or more
///    between them (a metro ride: no fixes underground). It becomes bus when `busShare` of it
///    runs along bus routes, it stops at two or more bus stops and at least half of its stops
///    are at bus stops (a car stops at lights, a bus at its stops). First of all, the ride's
///    line (`TransitLine`: the route it followed from a stop near its start to one near its end)
///    names it when the ride stopped at two or more of that line's stops: rail train, bus bus,
///    ferry boat (`lineMode`). Source `transit`. A vehicle type the IMU windows named (an older model's legs in the store) stands
///    against the feed, with a note: the feed says where a ride ran, not what the phone felt,
///    and no real feed has been scored on people. The feed's type replaces `vehicle` and the
///    GPS leg model's type, and the note that explained the earlier answer.
/// 3. A moving leg that only GPS covers (named by the GPS leg model on its run of windows, or by
///    the speed rules where that run was too short for it) is named again by the leg model on
///    the tripleg's own fixes, so its mode and the probabilities kept with it agree (`vehicle`
///    when its best type is that weak). Source `gps_leg_model`.
/// 4. Otherwise the leg keeps the mode and source its windows gave it.
/// 5. Where the IMU windows say the device moved and no fix was recorded, legs by time join
///    them (`TimeLegs`): mode and decider from the windows, no distance, no geometry.
///
/// Before all this, flights and jumps are cut out of their legs (`FlightsAndJumps`, decider
/// `plausibility`: a flight is `airplane`, a jump no mode reaches a leg with no mode), and
/// nothing after changes them. Then, with a feed, a metro ride hidden in a leg on foot is cut out of it: where
/// two consecutive fixes of a leg that is not motorised lie `undergroundGapSeconds` or more
/// apart, both within `nearStationMeters` of a rail stop, and the straight line between them is
/// faster than `fastestOnFootMps` (no one walks or runs that through a tunnel for minutes),
/// the stretch between them becomes a train leg of its own (source `transit`); the phone had no
/// fix underground, and the speed rules saw only the walks at both ends.
///
/// The thresholds are set from what the features mean, not fitted: there is no labelled
/// data with both IMU and GPS, or with a feed, to fit them on (see docs/modes.md).
public struct LegFusion: Sendable {
    public var legModel: GPSLegModel?
    /// The IMU model's modes; bike is left to the GPS leg model when it is not among them.
    public var imuClasses: [Mode]
    public var legFeatures = LegFeatures()
    public var transit: TransitIndex?
    /// Flights and jumps, cut out of their legs before anything else decides them.
    public var plausibility = FlightsAndJumps()
    /// Legs by time where IMU windows say a device moved and no fix says where.
    public var timeLegs = TimeLegs()

    public var minimumIMUShare = 0.5
    /// How the IMU windows and the GPS leg model make the mode (`LegModeRule`).
    public var rule = LegModeRule()
    public var railShare = 0.5
    public var busShare = 0.6
    public var nearStationMeters = 300.0
    public var undergroundGapSeconds = 120.0
    /// Faster than this across a gap is not on foot, m/s: a brisk walk is under 2.5 m/s
    /// (Bohannon 1997's fastest adults), and a runner who holds 3 m/s for minutes is rare.
    public var fastestOnFootMps = 3.0

    public static let fusedSource = Decider.imuAndGPSLegModel
    public static let transitSource = Decider.transit

    public init(legModel: GPSLegModel?, imuClasses: [Mode], legFeatures: LegFeatures = LegFeatures(), transit: TransitIndex? = nil) {
        self.legModel = legModel
        self.imuClasses = imuClasses
        self.legFeatures = legFeatures
        self.transit = transit
    }

    /// Decides every leg of `track` from the IMU windows in `imuSpans` (an IMU model's, any
    /// order), its fixes and the feed; sets each leg's `evidence`, and its mode and source when
    /// the evidence changes them.
    public func apply(_ track: DeviceTrack, legs: inout [Tripleg], imuSpans: [ModeSpan]) {
        var device = DeviceLegs(self, imuSpans: imuSpans, device: track.device)
        device.decide(track, legs: &legs)
        device.finish(&legs)
    }

    /// `apply` to the legs made of one piece of a device's track (`spans` its IMU windows by start):
    /// all but the legs by time, which need every fix of the device (`DeviceLegs`).
    func decideFixLegs(_ track: DeviceTrack, legs: inout [Tripleg], spans: [ModeSpan]) {
        legs = legs.flatMap { plausibility.cut($0, track: track) }
        if transit != nil { legs = legs.flatMap { cutUnderground($0, track: track) } }
        for index in legs.indices where legs[index].modeSource != .plausibility { decide(&legs[index], track: track, spans: spans) }
        for index in legs.indices where legs[index].mode == nil && legs[index].modeSource == nil {
            legs[index].modeNote = "no IMU window and no GPS speed covered the leg: its fixes are too few or too far apart"
        }
        if let transit { matchTransit(track, legs: &legs, transit: transit) }
    }

    /// Adds the device's legs by time (IMU windows no fix is near) to its decided legs, in time order.
    func addLegsByTime(_ legs: inout [Tripleg], device: String, placement: TimeLegs.Placement) {
        let byTime = timeLegs.legs(device: device, placement: placement)
        if !byTime.isEmpty {
            legs += byTime
            legs.sort { ($0.startSeconds, $0.byTime ? 1 : 0, $0.firstFix) < ($1.startSeconds, $1.byTime ? 1 : 0, $1.firstFix) }
        }
    }

    /// Rule 2 over `legs` (fix legs only, in time order).
    func matchTransit(_ track: DeviceTrack, legs: inout [Tripleg], transit: TransitIndex) {
        var start = 0
        while start < legs.count {
            var end = start + 1
            while end < legs.count, legs[end].firstFix == legs[end - 1].lastFix, Self.rideModes.contains(legs[end].mode ?? .walk),
                Self.rideModes.contains(legs[start].mode ?? .walk)
            { end += 1 }
            var ride = start..<end
            if ride.contains(where: { legs[$0].mode.map(Self.motorised.contains) ?? false }) {
                let firstFix = legs[ride.lowerBound].firstFix
                let fixes = track.points[firstFix...legs[ride.upperBound - 1].lastFix].map {
                    ($0.timeSeconds, $0.latitudeDegrees, $0.longitudeDegrees)
                }
                var match = TransitMatch(fixes, index: transit)
                (match.line, match.lineNote) = transit.line(for: fixes)
                // A ride no one line fits may have changed lines at a station: cut there, each part its line.
                var change: (fix: Int, after: TransitMatch)?
                if match.line == nil, let transfer = transit.transfer(for: fixes) {
                    let fix = firstFix + transfer.fix
                    if let holder = ride.first(where: { legs[$0].firstFix < fix && fix < legs[$0].lastFix }) {
                        let leg = legs[holder]
                        legs.replaceSubrange(
                            holder...holder,
                            with: leg.cut(at: [(fix, leg.lastFix, leg.mode, leg.modeSource, leg.modeNote)], points: track.points))
                        (end, ride) = (end + 1, start..<(end + 1))
                    }
                    var after = match
                    (match.line, match.lineNote, after.line) = (transfer.first, nil, transfer.second)
                    change = (fix, after)
                }
                for index in ride where legs[index].mode.map(Self.motorised.contains) ?? false {
                    let legMatch = change.map { legs[index].firstFix >= $0.fix ? $0.after : match } ?? match
                    legs[index].evidence?.transit = legMatch
                    guard let mode = Self.lineMode(legMatch.line) ?? transitMode(legMatch), mode != legs[index].mode else { continue }
                    // A feed says where a ride ran, not what the phone felt: a vehicle type the IMU
                    // named with confidence stands against it (no real feed has been scored on people).
                    if legs[index].modeSource?.isIMUModel == true, let imuMode = legs[index].mode, imuMode != .vehicle {
                        legs[index].modeNote = "the IMU windows' \(imuMode.rawValue) stands against the transit feed's \(mode.rawValue)"
                        continue
                    }
                    legs[index].mode = mode
                    legs[index].modeSource = Self.transitSource
                    legs[index].modeNote = nil
                }
            } else {
                for index in ride where legs[index].lastFix > legs[index].firstFix {
                    let points = track.points[legs[index].firstFix...legs[index].lastFix]
                    legs[index].evidence?.transit = TransitMatch(
                        points.map { ($0.timeSeconds, $0.latitudeDegrees, $0.longitudeDegrees) }, index: transit)
                }
            }
            start = end
        }
    }

    static let motorised: Set<Mode> = [.car, .bus, .train, .vehicle]

    /// The mode a matched line names (rail `train`, bus `bus`, ferry `boat`) when the ride
    /// stopped at two or more of its stops (`TransitLine.stationStops`): a route the ride followed
    /// from stop to stop says which vehicle it was better than a speed profile does, so it
    /// overrules the GPS leg model's and the speed rules' type. It is only sought for a ride the
    /// motion already called motorised, so it never changes the family, and a vehicle type the
    /// IMU windows named with confidence still stands against it (`matchTransit`).
    static func lineMode(_ line: TransitLine?) -> Mode? {
        guard let line, line.stationStops >= 2 else { return nil }
        return line.kind.mode
    }

    /// `leg` cut around every underground ride in it (see the type's notes); `[leg]` when it
    /// has none or is motorised already.
    func cutUnderground(_ leg: Tripleg, track: DeviceTrack) -> [Tripleg] {
        guard let transit, leg.modeSource != .plausibility, !(leg.mode.map(Self.motorised.contains) ?? false), leg.lastFix > leg.firstFix
        else { return [leg] }
        let points = track.points
        var cuts: [Int] = []
        for index in leg.firstFix..<leg.lastFix where ridesUnderground(points[index], points[index + 1], transit: transit) {
            cuts.append(index)
        }
        return leg.cut(at: cuts.map { ($0, $0 + 1, .train, Self.transitSource, nil) }, points: points)
    }
    static let rideModes: Set<Mode> = [.car, .bus, .train, .vehicle, .still]

    /// Whether the device rode between consecutive fixes `a` and `b` underground: `undergroundGapSeconds`
    /// or more apart, both within `nearStationMeters` of a rail stop of the feed, and farther
    /// apart than `fastestOnFootMps` covers. False without a feed.
    public func ridesUnderground(_ a: TrackPoint, _ b: TrackPoint) -> Bool {
        transit.map { ridesUnderground(a, b, transit: $0) } ?? false
    }

    func ridesUnderground(_ a: TrackPoint, _ b: TrackPoint, transit: TransitIndex) -> Bool {
        let seconds = b.timeSeconds - a.timeSeconds
        return seconds >= undergroundGapSeconds && TrackPoint.distanceMeters(a, b) / seconds > fastestOnFootMps
            && transit.nearestStopMeters(a.latitudeDegrees, a.longitudeDegrees, kind: .rail) <= nearStationMeters
            && transit.nearestStopMeters(b.latitudeDegrees, b.longitudeDegrees, kind: .rail) <= nearStationMeters
    }

    func decide(_ leg: inout Tripleg, track: DeviceTrack, spans: [ModeSpan]) {
        var evidence = LegEvidence(), reading: LegReading?
        (evidence.imuShare, evidence.imuMode, evidence.imuModeShare) = Self.imu(spans, from: leg.startSeconds, to: leg.endSeconds)
        if let legModel, leg.lastFix - leg.firstFix + 1 >= 3 {
            // Read from the track one fix at a time: a leg may be most of a long track.
            let fixes = TrackFixes(track.points, range: leg.firstFix...leg.lastFix)
            var table = LegTable()
            if table.add(fixes[...], trace: track.device, device: track.device, features: legFeatures) {
                reading = legModel.readings(table)[0]
                evidence.gpsProbabilities = reading?.probabilities
            }
        }
        leg.evidence = evidence
        guard let mode = leg.mode, mode != .still else { return }
        if evidence.imuShare >= minimumIMUShare, let imuMode = evidence.imuMode, mode != .airplane {
            let source =
                spans.first { $0.mode == imuMode && $0.endSeconds > leg.startSeconds && $0.startSeconds < leg.endSeconds }?.source ?? .model
            let motion = LegModeRule.Motion(mode: imuMode, share: evidence.imuModeShare, knownModes: Set(imuClasses), source: source)
            if let decision = rule.decide(motion: motion, gps: reading) {
                (leg.mode, leg.modeSource, leg.modeNote) = (decision.mode, decision.source, decision.note)
            }
        } else if let source = leg.modeSource, source.isIMUModel, LegModeRule.vehicleTypes.contains(mode) {
            // Windows too few to decide the family still named a type: it holds no more here.
            let motion = LegModeRule.Motion(mode: mode, share: evidence.imuModeShare, knownModes: Set(imuClasses), source: source)
            if let decision = rule.decide(motion: motion, gps: reading) {
                (leg.mode, leg.modeSource, leg.modeNote) = (decision.mode, decision.source, decision.note)
            }
        } else if leg.modeSource == GPSLegDecision.source || leg.modeSource == GPSLegDecision.rulesSource,
            let reading,
            let decision = rule.decideGPSAlone(reading)
        {
            (leg.mode, leg.modeSource, leg.modeNote) = (decision.mode, decision.source, decision.note)
        }
    }

    /// Train, bus or nil, as the feed says (rule 2 above).
    public func transitMode(_ match: TransitMatch) -> Mode? {
        let start = match.startMeters[.rail] ?? .infinity, end = match.endMeters[.rail] ?? .infinity
        let alongRail =
            (match.corridorShare[.rail] ?? 0) >= railShare
            && (min(start, end) <= nearStationMeters || (match.stoppedAt[.rail] ?? 0) >= 1)
        let underground = max(start, end) <= nearStationMeters && match.longestGapSeconds >= undergroundGapSeconds
        if alongRail || underground { return .train }
        let atBusStops = match.stoppedAt[.bus] ?? 0
        if (match.corridorShare[.bus] ?? 0) >= busShare, atBusStops >= 2, 2 * atBusStops >= match.stops { return .bus }
        return nil
    }

    /// The share of `start...end` under IMU windows, the mode with most of that time, and that
    /// mode's share of the windows' time.
    static func imu(_ spans: [ModeSpan], from start: Double, to end: Double) -> (Double, Mode?, Double) {
        guard end > start else { return (0, nil, 0) }
        var perMode: [Mode: Double] = [:], covered: [(Double, Double)] = []
        let first = spans.firstIndex { $0.endSeconds > start } ?? spans.endIndex
        for span in spans[first...] {
            if span.startSeconds >= end { break }
            let overlap = min(end, span.endSeconds) - max(start, span.startSeconds)
            guard overlap > 0 else { continue }
            perMode[span.mode, default: 0] += overlap
            covered.append((max(start, span.startSeconds), min(end, span.endSeconds)))
        }
        // Windows overlap (by half): the covered time is their union.
        var union = 0.0, reach = start
        for (a, b) in covered.sorted(by: { $0.0 < $1.0 }) where b > reach {
            union += b - max(a, reach)
            reach = b
        }
        let majority = perMode.max { ($0.value, $1.key) < ($1.value, $0.key) }
        let total = perMode.values.reduce(0, +)
        return (min(1, union / (end - start)), majority?.key, total > 0 ? (majority?.value ?? 0) / total : 0)
    }
}
