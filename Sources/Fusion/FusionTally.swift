import MobilityCore
import Trips

/// How often the leg decision changed what a source said on its own: over the legs each source
/// covered (the IMU windows for half a leg or more; the GPS leg model wherever it read the
/// fixes), how many ended with another mode, and their minutes. Said by the trip stage, so an
/// analyst sees how much the combination, not one source, made the split.
public struct FusionTally: Sendable, Encodable, Equatable {
    public var imuLegs = 0
    public var imuChanged = 0
    public var imuChangedSeconds = 0.0
    public var gpsLegs = 0
    public var gpsChanged = 0
    public var gpsChangedSeconds = 0.0
    /// Legs of movement, and those answered by their family only (`vehicle`: no source could
    /// name the type), with their minutes.
    public var movingLegs = 0
    public var familyOnlyLegs = 0
    public var familyOnlySeconds = 0.0

    public init() {}

    public init(_ legs: [Tripleg]) {
        for leg in legs {
            guard let evidence = leg.evidence, let mode = leg.mode else { continue }
            if mode != .still {
                movingLegs += 1
                if mode == .vehicle { (familyOnlyLegs, familyOnlySeconds) = (familyOnlyLegs + 1, familyOnlySeconds + leg.durationSeconds) }
            }
            if let imu = evidence.imuAnswer {
                imuLegs += 1
                if imu != mode { (imuChanged, imuChangedSeconds) = (imuChanged + 1, imuChangedSeconds + leg.durationSeconds) }
            }
            if let gps = evidence.gpsLegModelAnswer {
                gpsLegs += 1
                if gps != mode { (gpsChanged, gpsChangedSeconds) = (gpsChanged + 1, gpsChangedSeconds + leg.durationSeconds) }
            }
        }
    }

    /// One log line; nil when no leg had either source.
    public var line: String? {
        guard imuLegs + gpsLegs > 0 else { return nil }
        return "trips: the final mode differs from the IMU windows' on \(imuChanged) of the \(imuLegs) legs they cover "
            + String(format: "(%.0f min)", imuChangedSeconds / 60)
            + " and from the GPS leg model's on \(gpsChanged) of the \(gpsLegs) legs it read "
            + String(format: "(%.0f min)", gpsChangedSeconds / 60)
            + "; \(familyOnlyLegs) of the \(movingLegs) legs of movement "
            + String(format: "(%.0f min)", familyOnlySeconds / 60)
            + " are `vehicle`, their type out of reach; triplegs.csv has each source's answer and mode_note why"
    }

    enum CodingKeys: String, CodingKey {
        case imuLegs = "imu_legs", imuChanged = "imu_changed", imuChangedSeconds = "imu_changed_s"
        case gpsLegs = "gps_leg_model_legs", gpsChanged = "gps_leg_model_changed", gpsChangedSeconds = "gps_leg_model_changed_s"
        case movingLegs = "moving_legs", familyOnlyLegs = "family_only_legs", familyOnlySeconds = "family_only_s"
    }
}
