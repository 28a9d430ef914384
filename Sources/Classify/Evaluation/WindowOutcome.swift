import Features
import MobilityCore

/// One scored window of an evaluation: where it came from, its true mode, and what the
/// classifier and the rules baseline said, smoothed and not. Every score `evaluate` prints
/// (pooled, bootstrapped over people, per recording) is computed from these.
public struct WindowOutcome: Hashable, Sendable {
    public var trace: String
    public var device: String
    public var truth: Mode
    public var smoothed: Mode
    public var raw: Mode
    public var baseline: Mode
    public var baselineRaw: Mode
    /// What decided the window: the model (with or without gravity), or the rules (a window the
    /// model cannot read); for a leg, the GPS leg model or trackintel's rule.
    public var source: Decider
    /// The cross-validation group the window was held out with, when it is not its device
    /// (`GroupedCrossValidation.GroupBy.day`): the intervals resample these groups instead.
    public var group: String? = nil
    /// The named person who carried the device (nil: none named, the device stands for one):
    /// the intervals resample persons, so one person's two phones are one draw.
    public var person: String? = nil
    /// A leg's labelled seconds, for time-weighted agreement (nil for a window).
    public var seconds: Double? = nil
    /// The data set the window came from (the path given to `evaluate` that holds its trace),
    /// when the evaluation had several: `DatasetScore` scores each apart.
    public var dataset: String? = nil
    /// A leg's calibrated probability of the GPS leg model's most probable mode (`raw`), for
    /// its expected calibration error; nil for a window and for trackintel's rule.
    public var confidence: Double? = nil
    /// A leg's local date (`GroupedCrossValidation.day`); nil for a window.
    public var day: String? = nil
    /// A leg's first and last fix times, seconds since 1970: a thinned copy of a leg is matched
    /// to the leg as recorded by them (`LegKept`); nil for a window.
    public var span: ClosedRange<Double>? = nil

    /// The outcomes of `table`'s windows (all labelled) under `prediction` and the rules'
    /// prediction `rules`.
    public static func of(_ table: FeatureTable, prediction: ModePredictor.Prediction, rules: ModePredictor.Prediction) -> [WindowOutcome] {
        table.windows.indices.map { index in
            let window = table.windows[index]
            return WindowOutcome(
                trace: window.trace, device: window.device, truth: window.mode!,
                smoothed: prediction.modes[index], raw: prediction.raw[index], baseline: rules.modes[index],
                baselineRaw: rules.raw[index], source: prediction.sources[index])
        }
    }

    /// A saved model's outcomes on the labelled windows of `table`, smoothed as `smoother`
    /// says (smoothing is an option of the run, not frozen in the model), with the rules
    /// beside it, each window's data set and person named where `datasets` and `persons`
    /// (by trace) name one.
    public static func of(
        _ table: FeatureTable, model: ModeModel, smoother: ModeSmoother, datasets: [String: String], persons: [String: String]
    ) -> [WindowOutcome] {
        var predictor = ModePredictor(model: model)
        predictor.smoother = smoother
        var outcomes = of(table, prediction: predictor.predict(table), rules: ModePredictor(model: nil).predict(table))
        for index in outcomes.indices {
            (outcomes[index].dataset, outcomes[index].person) = (datasets[outcomes[index].trace], persons[outcomes[index].trace])
        }
        return outcomes
    }
}

extension ConfusionMatrix where Label == Mode {
    /// The confusion of `outcomes`' truths against the predictions `predicted` picks.
    public init(_ outcomes: [WindowOutcome], _ predicted: KeyPath<WindowOutcome, Mode>) {
        self.init()
        for outcome in outcomes { add(truth: outcome.truth, predicted: outcome[keyPath: predicted]) }
    }
}

extension WindowOutcome {
    /// A leg's or window's outcome where one answer is scored beside a baseline's.
    public init(
        trace: String, device: String, truth: Mode, predicted: Mode, baseline: Mode, source: Decider, person: String? = nil,
        dataset: String? = nil
    ) {
        self.init(
            trace: trace, device: device, truth: truth, smoothed: predicted, raw: predicted, baseline: baseline, baselineRaw: baseline,
            source: source, person: person, dataset: dataset)
    }
}
