import Classify
import Features
import MobilityCore

/// How a model's GPS leg classifier decides windows that only GPS covers: the speed rules
/// (smoothed) find where the device moves and where it changes between on foot and riding,
/// each such run of windows becomes a leg of the fixes in its time span, and the leg model
/// names the whole leg's mode (bus and train included, which the rules cannot tell from car).
/// Windows the rules call still stay as they are; a leg the model cannot read (too few fixes)
/// keeps its windows' modes and sources.
public enum GPSLegDecision {
    public static let source = Decider.gpsLegModel
    /// What a leg's mode source is when the GPS speed rules named it (no leg model, or too few fixes for it).
    public static let rulesSource = Decider.gpsRules
    /// Windows further apart than this start a new leg, seconds. Default 60.
    public static let maxGapSeconds = 60.0

    /// `apply` to every recording's run of windows (windows of one trace are consecutive, in
    /// time order, as `FeatureRun` writes them), each with its trace's fixes.
    @discardableResult
    public static func apply(
        _ model: GPSLegModel, windows: [WindowInfo], fixesByTrace: [String: [PositionFix]],
        prediction: inout ModePredictor.Prediction, deciding sources: Set<Decider> = [.rules],
        segmentation: [Mode]? = nil, features: LegFeatures = LegFeatures()
    ) -> Int {
        var decided = 0, start = 0
        while start < windows.count {
            var end = start + 1
            while end < windows.count, windows[end].trace == windows[start].trace { end += 1 }
            if let fixes = fixesByTrace[windows[start].trace] {
                decided += apply(
                    model, windows: windows, range: start..<end, fixes: fixes, prediction: &prediction, deciding: sources,
                    segmentation: segmentation, features: features)
            }
            start = end
        }
        return decided
    }

    /// Rewrites `prediction.modes` and `.sources` of the windows in `range` that a GPS classifier
    /// decided (their source in `sources`: the rules, and the model for a model trained on GPS
    /// alone) and whose runs the leg model reads; returns the number of legs it decided.
    /// `segmentation` gives each window's mode from the speed rules (default: `prediction`'s own
    /// modes, when the rules made it): runs are cut where it is still, where it changes between
    /// walk and riding, and at gaps. `windows` are `prediction`'s; those in `range` are one
    /// recording's, in time order, and `fixes` are that recording's.
    @discardableResult
    public static func apply(
        _ model: GPSLegModel, windows: [WindowInfo], range: Range<Int>, fixes: [PositionFix],
        prediction: inout ModePredictor.Prediction, deciding sources: Set<Decider> = [.rules],
        segmentation: [Mode]? = nil, features: LegFeatures = LegFeatures()
    ) -> Int {
        let timed = fixes.timedInOrder
        return apply(
            model, windows: windows, range: range, times: timed.map { $0.time!.secondsSince1970 }, prediction: &prediction,
            deciding: sources, segmentation: segmentation
        ) { table, fixes, trace, device in table.add(timed[fixes], trace: trace, device: device, features: features) }
    }

    /// The same for a device's track (`TrackFixes`, in time order): each leg's features read its
    /// fixes one at a time, so a leg as long as the track is never copied.
    @discardableResult
    public static func apply(
        _ model: GPSLegModel, windows: some WindowTimeline, range: Range<Int>, fixes: TrackFixes,
        prediction: inout ModePredictor.Prediction, deciding sources: Set<Decider> = [.rules],
        segmentation: [Mode]? = nil, features: LegFeatures = LegFeatures()
    ) -> Int {
        apply(
            model, windows: windows, range: range, times: fixes.times, prediction: &prediction, deciding: sources,
            segmentation: segmentation
        ) { table, range, trace, device in table.add(fixes[range], trace: trace, device: device, features: features) }
    }

    /// `times`: the fixes' (in order); `addLeg` adds the leg of the fixes at a range of them to a table.
    private static func apply<Times: RandomAccessCollection<Double>>(
        _ model: GPSLegModel, windows: some WindowTimeline, range: Range<Int>, times: Times,
        prediction: inout ModePredictor.Prediction, deciding sources: Set<Decider>, segmentation: [Mode]?,
        addLeg: (inout LegTable, Range<Int>, String, String) -> Bool
    ) -> Int where Times.Index == Int {
        let rules = segmentation ?? prediction.modes
        func movable(_ index: Int) -> Bool { sources.contains(prediction.sources[index]) && rules[index] != .still }
        var decided = 0, index = range.lowerBound
        while index < range.upperBound {
            guard movable(index) else { index += 1; continue }
            var end = index + 1
            while end < range.upperBound, movable(end), (rules[end] == .walk) == (rules[index] == .walk),
                windows.end(at: end - 1).seconds(until: windows.start(at: end)) <= maxGapSeconds
            { end += 1 }
            let lower = times.firstIndex(notBelow: windows.start(at: index).secondsSince1970) { $0 }
            let upper = times.firstIndex(notBelow: windows.end(at: end - 1).secondsSince1970.nextUp) { $0 }
            var leg = LegTable()
            if upper - lower >= 3, addLeg(&leg, lower..<upper, windows.trace(at: index), windows.device(at: index)) {
                let mode = model.predict(leg)[0]
                for window in index..<end {
                    prediction.modes[window] = mode
                    prediction.sources[window] = source
                }
                decided += 1
            }
            index = end
        }
        return decided
    }
}

extension GPSLegDecision {
    /// What decided a run's legs' modes (`counts` by decider), and why the speed rules did
    /// under a model: the line `pipeline run` logs.
    public static func line(decidedBy counts: [String: Int], model: ModeModel?) -> String {
        var said =
            "trips: leg modes decided by "
            + (counts.isEmpty
                ? "nothing (no legs)"
                : counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        if let rules = counts[rulesSource.rawValue], rules > 0 {
            said +=
                model == nil
                ? "; gps_rules: GPS speed rules (still, walk, bike, car), no model"
                : model!.gpsLegs == nil
                    ? "; gps_rules: GPS speed rules (still, walk, bike, car) for legs without IMU, as the model has no GPS leg model"
                    : "; gps_rules: legs too short for the GPS leg model"
        }
        return said
    }

    /// Which classifier decided how many windows (`gpsLegs`: the legs the GPS leg model named),
    /// and why the rules decided any under a model: the line `pipeline classify` logs.
    public static func line(windowsDecidedBy sources: [Decider], gpsLegs: Int, model: ModeModel?) -> String {
        guard !sources.isEmpty else { return "decided by: nothing, there are no windows (each file's reason follows)" }
        var counts: [String: Int] = [:]
        for source in sources { counts[source.rawValue, default: 0] += 1 }
        var said =
            "decided by: "
            + counts.sorted { $0.key < $1.key }.map { source, count in
                source == Self.source.rawValue ? "\(source) \(count) windows in \(gpsLegs) legs" : "\(source) \(count) windows"
            }.joined(separator: ", ")
        if let model, let rules = counts["rules"], rules > 0 {
            said +=
                model.gpsLegs == nil
                ? "; the \(rules) windows the model cannot read (GPS only) were decided by the GPS speed rules (still, walk, bike, car only): "
                    + "the model has no GPS leg part (train one on labelled GPS legs with `pipeline train`)"
                : "; the \(rules) windows left to the GPS speed rules are still, or in legs too short for the GPS leg model (under 3 fixes or two 30 s chords)"
        }
        return said
    }

    /// The windows of `table` only GPS covers, decided by `model`'s GPS leg model as whole legs
    /// (`pipeline classify`): the speed rules cut the legs (a GPS window model trained at 1 Hz
    /// misreads a sparse logger's walk as still) and the leg model names them; under a model of
    /// GPS alone its own windows are regrouped into legs too. Returns the legs it decided, 0
    /// when the model has no GPS leg model.
    public static func apply(
        _ model: ModeModel, table: FeatureTable, fixesByTrace: [String: [PositionFix]], smooth: Bool, features: LegFeatures,
        prediction: inout ModePredictor.Prediction
    ) -> Int {
        guard let legModel = model.gpsLegs else { return 0 }
        let rules = ModePredictor(model: nil, smooth: smooth).predict(table).modes
        return apply(
            legModel, windows: table.windows, fixesByTrace: fixesByTrace, prediction: &prediction,
            deciding: model.usesInertial ? [.rules] : [.rules, .model], segmentation: rules, features: features)
    }
}
