import Classify
import Fusion
import MobilityCore
import Testing

/// The one rule that makes a leg's mode from its motion source and its GPS leg model's reading.
@Suite struct LegModeRuleTests {
    let rule = LegModeRule()
    static let imuModes: Set<Mode> = [.still, .walk, .car, .bus, .train]
    static let activityModes: Set<Mode> = [.still, .walk, .bike, .vehicle]

    func imu(_ mode: Mode, _ share: Double) -> LegModeRule.Motion {
        .init(mode: mode, share: share, knownModes: Self.imuModes, source: .model)
    }

    /// A reading of a leg at an ordinary urban pace (no steady-pace rule), inside the training range.
    func gps(_ p: [Mode: Double], outside: [String] = [], threshold: Double = 0.5) -> LegReading {
        var pace = LegReading.Pace()
        (pace.medianMps, pace.p95Mps, pace.slowShare) = (8, 14, 0.2)
        return LegReading(probabilities: p, outside: outside, pace: pace, typeThreshold: threshold)
    }

    @Test func theIMUWindowsSayTheFamilyAndTheGPSLegModelTheType() throws {
        // The window model's bus and train were each recorded by one TMD user: its car is no
        // evidence against the GPS leg model's train.
        let decision = try #require(rule.decide(motion: imu(.car, 0.95), gps: gps([.car: 0.05, .train: 0.9, .walk: 0.05])))
        #expect(decision.mode == .train && decision.source == .imuAndGPSLegModel && decision.note == nil)
    }

    @Test func aWeakTypeFromBothSourcesIsVehicleWithTheReason() throws {
        let decision = try #require(rule.decide(motion: imu(.bus, 0.5), gps: gps([.car: 0.3, .bus: 0.3, .train: 0.35, .walk: 0.05])))
        #expect(decision.mode == .vehicle && decision.note?.hasPrefix("vehicle:") == true && decision.familyOnly)
        let sure = try #require(rule.decide(motion: imu(.bus, 0.5), gps: gps([.car: 0.1, .bus: 0.1, .train: 0.75, .walk: 0.05])))
        #expect(sure.mode == .train && sure.source == .imuAndGPSLegModel && sure.note == nil)
    }

    @Test func anIMUVehicleWithoutGPSIsVehicleWhateverItsShare() throws {
        for share in [0.5, 1.0] {
            let decision = try #require(rule.decide(motion: imu(.car, share), gps: nil))
            #expect(decision.mode == .vehicle && decision.source == .model && decision.note?.contains("no GPS leg model") == true)
        }
        #expect(rule.decide(motion: imu(.walk, 0.5), gps: nil) == nil, "on foot needs no type: the leg keeps its windows' mode")
    }

    /// A motion source without a bike class never excludes bike: its car never overrules a GPS bike.
    @Test func anIMUCarNeverOverrulesAGPSBike() throws {
        let decision = try #require(rule.decide(motion: imu(.car, 1), gps: gps([.bike: 0.7, .bus: 0.2, .car: 0.1])))
        #expect(decision.mode == .bike)
    }

    @Test func aPhonesInVehicleLabelLeavesTheTypeToGPS() throws {
        #expect(Mode(labelName: "IN_VEHICLE") == .vehicle && Mode(labelName: "in vehicle") == .vehicle, "never car")
        let activity = LegModeRule.Motion(
            mode: .vehicle, share: 0.9, knownModes: Self.activityModes, source: .model, name: "the phone's activity labels")
        let decision = try #require(rule.decide(motion: activity, gps: gps([.bike: 0.5, .bus: 0.1, .train: 0.4])))
        #expect(decision.mode == .train)
        #expect(rule.decide(motion: activity, gps: gps([.bike: 0.9, .bus: 0.04, .train: 0.06]))?.mode == .train)
        #expect(
            rule.decide(
                motion: LegModeRule.Motion(mode: .still, share: 1, knownModes: Self.activityModes, source: .model), gps: gps([.car: 1]))
                == nil)
    }

    @Test func aGPSOnlyLegWhoseTypeIsUnderTheThresholdIsVehicle() throws {
        let weak = try #require(rule.decideGPSAlone(gps([.car: 0.3, .bus: 0.25, .train: 0.4, .walk: 0.05])))
        #expect(weak.mode == .vehicle && weak.source == .gpsLegModel && weak.note?.contains("train, 42%") == true, "\(weak)")
        #expect(rule.decideGPSAlone(gps([.car: 0.3, .bus: 0.25, .train: 0.4, .walk: 0.05], threshold: 0.4))?.mode == .train)
        #expect(rule.decideGPSAlone(gps([.car: 0.1, .train: 0.8, .walk: 0.1]))?.mode == .train)
        #expect(rule.decideGPSAlone(gps([.walk: 0.6, .car: 0.2, .bus: 0.2]))?.mode == .walk, "on foot needs no type")
        #expect(rule.decideGPSAlone(gps([:])) == nil)
    }

    /// A leg two or more of whose features lie beyond the training legs' range gets its family, with the note.
    @Test func aLegFarOutsideTheTrainingRangeIsVehicleWithItsNote() throws {
        let far = try #require(
            rule.decideGPSAlone(gps([.car: 0.05, .train: 0.9, .walk: 0.05], outside: ["leg_speed_p95_mps", "leg_accel_p85_mps2"])))
        #expect(far.mode == .vehicle && far.note?.contains("outside what the GPS leg model learnt from") == true, "\(far)")
        #expect(far.note?.contains("leg_speed_p95_mps") == true)
        #expect(rule.decideGPSAlone(gps([.car: 0.05, .train: 0.9, .walk: 0.05], outside: ["leg_speed_p95_mps"]))?.mode == .train)
    }

    /// A steady run's pace (3.4 m/s, as a runner keeps for half an hour) is never a vehicle,
    /// even where the GPS leg model's best mode is bus.
    @Test func aSteadyRunIsNotAVehicle() throws {
        var reading = gps([.bus: 0.55, .walk: 0.3, .bike: 0.15])
        (reading.pace.medianMps, reading.pace.p95Mps, reading.pace.slowShare) = (3.4, 3.7, 0.01)
        let alone = try #require(rule.decideGPSAlone(reading))
        #expect(alone.mode == .walk && alone.note?.hasPrefix("on foot or bike: a steady pace") == true, "\(alone)")
        let fused = try #require(rule.decide(motion: imu(.car, 0.9), gps: reading))
        #expect(fused.mode == .walk || fused.mode == .bike, "\(fused)")
    }

    /// A walk whose last minute runs fast (its end put late, on a train already moving: a
    /// diary's 4-minute walk of CBS SSI, median 1.5 m/s, 85th percentile 1.7, 95th 7.6) is on
    /// foot, whatever the GPS leg model's best mode; a bus crawling in traffic at the same
    /// median, stopping a fifth of its time, is not caught by the rule.
    @Test func aSteadyWalkWithAFastEndIsNotAVehicle() throws {
        var walk = gps([.train: 0.85, .bus: 0.07, .walk: 0.07, .bike: 0.01])
        (walk.pace.medianMps, walk.pace.p85Mps, walk.pace.p95Mps, walk.pace.slowShare) = (1.5, 1.7, 7.6, 0)
        let alone = try #require(rule.decideGPSAlone(walk))
        #expect(alone.mode == .walk && alone.note?.contains("85th percentile 1.7 m/s") == true, "\(alone)")
        var crawl = walk
        crawl.pace.slowShare = 0.2
        #expect(rule.decideGPSAlone(crawl)?.mode == .train)
        var fast = walk
        fast.pace.p85Mps = 4
        #expect(rule.decideGPSAlone(fast)?.mode == .train, "a sixth of the leg above walking pace is not a walk's fast end")
    }
}
