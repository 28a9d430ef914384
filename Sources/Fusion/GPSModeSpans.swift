import Classify
import Features
import MobilityCore
import Trips

/// Modes from GPS alone for a device's track: windows over its fixes with the GPS features,
/// the speed rules of `RuleClassifier`, and the usual smoothing; then, when the model has a
/// GPS leg model, each run of moving windows is named as a whole leg by it (`GPSLegDecision`).
/// The trip stage uses them wherever no classified IMU window (from `pipeline classify
/// --store`) covers a fix.
public enum GPSModeSpans {
    public static func spans(
        _ track: DeviceTrack, window: WindowParameters = WindowParameters(), legModel: GPSLegModel? = nil,
        legFeatures: LegFeatures = LegFeatures()
    ) -> [ModeSpan] {
        let fixes = track.points.map(PositionFix.init)
        let table = WindowFeatureExtractor(parameters: window).extract(Recording(trace: track.device, device: track.device, fixes: fixes))
        guard table.count > 0 else { return [] }
        var prediction = ModePredictor(model: nil).predict(table)
        if let legModel {
            GPSLegDecision.apply(
                legModel, windows: table.windows, range: 0..<table.count, fixes: fixes, prediction: &prediction,
                features: legFeatures)
        }
        return table.windows.indices.map { index in
            ModeSpan(
                startSeconds: table.windows[index].start.secondsSince1970, endSeconds: table.windows[index].end.secondsSince1970,
                mode: prediction.modes[index],
                source: prediction.sources[index] == .rules ? GPSLegDecision.rulesSource : prediction.sources[index])
        }
    }
}
