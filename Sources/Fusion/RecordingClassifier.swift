import Classify
import Features
import MobilityCore

/// The modes of recordings' windows, decided one way for `pipeline classify` and for `pipeline
/// run`'s classify stage: the predictor's smoothed modes, then the station stops found in each
/// recording's acceleration (`StopFusion`) made still. Feed it each recording as it is read
/// (`observe`), then ask for the whole table's prediction (`predict`) and lay the stops over it
/// (`applyStops`); a caller may decide more in between (`classify` names GPS legs there).
///
/// One instance per sequence of reads: it keeps the stops and the predictions it made while
/// observing, and reuses the one recording's prediction when the table is that recording.
public final class RecordingClassifier {
    public let predictor: ModePredictor
    /// Whether station stops are searched (smoothing on, and not turned off).
    public let findsVehicleStops: Bool
    private let fusion: StopFusion
    private var stops: [String: [ClosedRange<Double>]] = [:]
    private var parts: [ModePredictor.Prediction] = []

    public init(predictor: ModePredictor, findsVehicleStops: Bool, minimumStopSeconds: Double) {
        self.predictor = predictor
        self.findsVehicleStops = findsVehicleStops
        var fusion = StopFusion()
        fusion.minimumStopSeconds = minimumStopSeconds
        self.fusion = fusion
    }

    /// One recording as read, with its windows (`part`): its stops, when they are searched.
    public func observe(_ recording: Recording, part: FeatureTable) {
        guard findsVehicleStops, part.count > 0 else { return }
        parts.append(predictor.predict(part))
        stops[recording.trace, default: []] += fusion.stops(recording, windows: part.windows, modes: parts.last!.modes)
    }

    /// The predictor's modes of `table`: the observed recording's own prediction when the table
    /// is that one recording (it was made for the stop search), else the table's.
    public func predict(_ table: FeatureTable) -> ModePredictor.Prediction {
        parts.count == 1 && parts[0].modes.count == table.count ? parts[0] : predictor.predict(table)
    }

    /// The station stops found while observing, made still in `prediction`; returns how many
    /// windows changed.
    @discardableResult
    public func applyStops(windows: [WindowInfo], to prediction: inout ModePredictor.Prediction) -> Int {
        StopFusion.apply(stops, windows: windows, prediction: &prediction)
    }

    /// How many stops were found.
    public var stopCount: Int { stops.values.reduce(0) { $0 + $1.count } }
}
