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
    /// Windows whose features are held at once: about 2 MB of rows.
    static let piece = 2_048

    /// The modes of the windows over a device's fixes (its track's points outside its stays,
    /// `TrackFixes`, in time order), held compactly as a timeline's layer (`ModeWindows`).
    public static func spans(
        _ fixes: TrackFixes, device: String, window: WindowParameters = WindowParameters(), legModel: GPSLegModel? = nil,
        legFeatures: LegFeatures = LegFeatures()
    ) -> ModeWindows {
        // The windows' features in pieces, each scored, smoothed as they come and let go: only
        // the windows and a byte or two each are kept for the whole track (their probabilities,
        // 20 MB for a device's 640,000 windows, only until their classes are settled).
        let predictor = ModePredictor(model: nil)
        // The windows by their starts alone (8 bytes each, their ends made from the windows'
        // length; as `WindowInfo`s, 72).
        var windows = TraceWindows(trace: device, device: device, lengthSeconds: window.lengthSeconds)
        var stream = predictor.stream()
        let extractor = WindowFeatureExtractor(parameters: window)
        // Reserved whole: grown by doubling, the windows alone held 113 MB at their last growth
        // for a device's 640,000 windows (46 MB as `WindowInfo`s, 10 MB as spans).
        let bound = extractor.gpsWindowBound(times: fixes.times)
        extractor.forEachGPSPiece(fixes, trace: device, device: device, maxWindows: piece) { table in
            if windows.count == 0, table.count > 0 { windows.reserveCapacity(bound) }
            windows.append(contentsOf: table.windows)
            stream.add(table, scored: predictor.scores(table))
        }
        guard windows.count > 0 else { return .empty }
        var prediction = stream.finish(windows)
        if let legModel {
            GPSLegDecision.apply(
                legModel, windows: windows, range: 0..<windows.count, fixes: fixes, prediction: &prediction,
                features: legFeatures)
        }
        // The windows' starts and modes as they are (the spans were 24 bytes a window).
        return ModeWindows(
            starts: windows.starts, ends: windows.heldEnds, lengthSeconds: windows.lengthSeconds, modes: prediction.modes,
            sources: prediction.sources.map { $0 == .rules ? GPSLegDecision.rulesSource : $0 })
    }
}
