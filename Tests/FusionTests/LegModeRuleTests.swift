import Fusion
import MobilityCore
import Testing

/// The one rule that makes a leg's mode from its motion source and its GPS leg model.
@Suite struct LegModeRuleTests {
    let rule = LegModeRule()
    static let imuModes: Set<Mode> = [.still, .walk, .car, .bus, .train]
    static let activityModes: Set<Mode> = [.still, .walk, .bike, .vehicle]

    func imu(_ mode: Mode, _ share: Double) -> LegModeRule.Motion {
        .init(mode: mode, share: share, knownModes: Self.imuModes, source: .model)
    }

    @Test func aConfidentIMUTypeStandsAndSaysWhatItOverruled() throws {
        let decision = try #require(rule.decide(motion: imu(.car, 0.95), gps: [.car: 0.05, .train: 0.9, .walk: 0.05]))
        #expect(decision.mode == .car && decision.source == .model)
        #expect(decision.note?.contains("against the GPS leg model's train (p 0.90)") == true, "\(decision.note ?? "")")
    }

    @Test func aWeakTypeFromBothSourcesIsVehicleWithTheReason() throws {
        let decision = try #require(rule.decide(motion: imu(.bus, 0.5), gps: [.car: 0.3, .bus: 0.3, .train: 0.35, .walk: 0.05]))
        #expect(decision.mode == .vehicle && decision.note?.hasPrefix("vehicle:") == true)
        let sure = try #require(rule.decide(motion: imu(.bus, 0.5), gps: [.car: 0.1, .bus: 0.1, .train: 0.75, .walk: 0.05]))
        #expect(sure.mode == .train && sure.source == .imuAndGPSLegModel && sure.note == nil)
    }

    @Test func anIMUTypeWithoutAMajorityAndWithoutGPSIsVehicle() throws {
        let decision = try #require(rule.decide(motion: imu(.car, 0.5), gps: nil))
        #expect(decision.mode == .vehicle && decision.source == .model)
        #expect(rule.decide(motion: imu(.walk, 0.5), gps: nil) == nil, "on foot needs no type: the leg keeps its windows' mode")
    }

    @Test func aPhonesInVehicleLabelLeavesTheTypeToGPS() throws {
        #expect(Mode(labelName: "IN_VEHICLE") == .vehicle && Mode(labelName: "in vehicle") == .vehicle, "never car")
        let activity = LegModeRule.Motion(
            mode: .vehicle, share: 0.9, knownModes: Self.activityModes, source: .model, name: "the phone's activity labels")
        // The leg model alone would say bike; the activity labels say a vehicle, so its best vehicle type.
        let decision = try #require(rule.decide(motion: activity, gps: [.bike: 0.5, .bus: 0.1, .train: 0.4]))
        #expect(decision.mode == .train)
        // An activity source that knows bike keeps bike out of the vehicle family.
        #expect(rule.decide(motion: activity, gps: [.bike: 0.9, .bus: 0.04, .train: 0.06])?.mode == .train)
        #expect(
            rule.decide(motion: LegModeRule.Motion(mode: .still, share: 1, knownModes: Self.activityModes, source: .model), gps: [.car: 1])
                == nil)
    }

    @Test func aGPSOnlyLegWhoseTypeIsWeakIsVehicle() throws {
        let weak = try #require(rule.decideGPSAlone([.car: 0.3, .bus: 0.25, .train: 0.4, .walk: 0.05]))
        #expect(weak.mode == .vehicle && weak.source == .gpsLegModel && weak.note?.contains("train, 42%") == true, "\(weak)")
        #expect(rule.decideGPSAlone([.car: 0.1, .train: 0.8, .walk: 0.1])?.mode == .train)
        #expect(rule.decideGPSAlone([.walk: 0.6, .car: 0.2, .bus: 0.2])?.mode == .walk, "on foot needs no type")
        #expect(rule.decideGPSAlone([:]) == nil)
    }
}
