import MobilityCore
import Trips

/// One device's legs decided as wholes (`LegFusion`), then corrected by what its person said
/// (`LegCorrections`), before trips are made of them; fed the legs of each piece of its track in
/// turn (`TrackPieceAnalysis`), or of the whole track at once. The legs by time wait for the
/// last piece: whether a fix lies near an IMU window is known only once every fix was seen.
public struct DeviceLegs: DeviceLegDecisions {
    let fusion: LegFusion
    let device: String
    let person: String
    let corrections: LegCorrections
    /// The device's IMU windows by start, and which have a fix near them so far.
    private var placement: TimeLegs.Placement

    /// `imuSpans`: the windows an IMU model classified for the device (any order); `person`
    /// whose corrections apply (default: the device's own name).
    public init(
        _ fusion: LegFusion, imuSpans: [ModeSpan], device: String, person: String? = nil, corrections: LegCorrections = LegCorrections()
    ) {
        self.fusion = fusion
        self.device = device
        self.person = person ?? device
        self.corrections = corrections
        placement = TimeLegs.Placement(imuSpans, maxGapSeconds: fusion.timeLegs.maxGapSeconds)
    }

    public mutating func decide(_ piece: DeviceTrack, legs: inout [Tripleg]) {
        fusion.decideFixLegs(piece, legs: &legs, spans: placement.spans)
        placement.mark(near: piece.points)
    }

    public mutating func finish(_ legs: inout [Tripleg]) {
        fusion.addLegsByTime(&legs, device: device, placement: placement)
        corrections.apply(device: device, person: person, legs: &legs)
    }
}
