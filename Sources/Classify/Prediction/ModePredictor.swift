import Features
import MobilityCore

/// Modes for the windows of a feature table: the model's probabilities for windows it can
/// read, the rules for the others (GPS-only windows under an IMU model), then smoothing.
public struct ModePredictor: Sendable {
    public var model: ModeModel?
    public var smooth = true
    public var smoother: ModeSmoother

    /// A predictor using `model`, or the rules alone when nil.
    public init(model: ModeModel?, smooth: Bool = true) {
        self.model = model
        self.smooth = smooth
        smoother = model?.smoothing ?? ModeSmoother()
    }

    public struct Prediction: Sendable {
        /// The classes the probability columns stand for.
        public var classes: [Mode]
        /// windows × classes.
        public var probabilities: [Double]
        /// Per window, before smoothing.
        public var raw: [Mode]
        /// Per window, after smoothing (equal to `raw` when smoothing is off).
        public var modes: [Mode]
        /// Per window, "model", "model (gravity-free)" (a window without gravity), "rules", or
        /// "gps_leg_model" (`GPSLegDecision`).
        public var sources: [Decider]

        public init(classes: [Mode], probabilities: [Double], raw: [Mode], modes: [Mode], sources: [Decider]) {
            self.classes = classes
            self.probabilities = probabilities
            self.raw = raw
            self.modes = modes
            self.sources = sources
        }
    }

    public var classes: [Mode] {
        Array(Set((model?.classes ?? []) + RuleClassifier.classes)).sorted()
    }

    public func predict(_ table: FeatureTable) -> Prediction {
        let (probabilities, sources) = scores(table)
        return prediction(windows: table.windows, probabilities: probabilities, sources: sources)
    }

    /// Each window's class probabilities (windows × `classes`) and who gave them, before
    /// smoothing: a window's own, so a long track's windows can be scored piece by piece
    /// (`GPSModeSpans`) and smoothed together (`prediction(windows:probabilities:sources:)`).
    public func scores(_ table: FeatureTable) -> (probabilities: [Double], sources: [Decider]) {
        let classes = self.classes, k = classes.count, columns = FeatureTable.columns
        var probabilities = RuleClassifier().probabilities(table, classes: classes)
        var sources = [Decider](repeating: .rules, count: table.count)
        if let model {
            let readable = table.windows.indices.filter { model.reads(table.row($0)) }
            let mapping = model.classes.map { classes.firstIndex(of: $0)! }
            for gravityFree in [false, true] {
                let chosen = readable.filter { model.isGravityFree(table.row($0)) == gravityFree }
                guard !chosen.isEmpty else { continue }
                var rows = [Double]()
                rows.reserveCapacity(chosen.count * columns)
                for index in chosen { rows += table.row(index) }
                let p = model.probabilities(model.standardizer.transform(rows), rows: chosen.count, gravityFree: gravityFree)
                for (position, index) in chosen.enumerated() {
                    for c in 0..<k { probabilities[index * k + c] = 0 }
                    for (c, target) in mapping.enumerated() { probabilities[index * k + target] = p[position * model.classes.count + c] }
                    sources[index] = gravityFree ? .modelGravityFree : .model
                }
            }
        }
        return (probabilities, sources)
    }

    /// The prediction of `windows` from their scores (`scores(_:)`, in window order): the most
    /// probable class of each, then smoothing over them all.
    public func prediction(windows: some WindowTimeline, probabilities: [Double], sources: [Decider]) -> Prediction {
        let classes = self.classes, k = classes.count
        let raw = (0..<windows.count).map { classes[ModeSmoother.mostProbable(probabilities[($0 * k)..<(($0 + 1) * k)])] }
        var prediction = Prediction(classes: classes, probabilities: probabilities, raw: raw, modes: raw, sources: sources)
        if smooth { prediction.modes = resmooth(prediction, windows: windows, with: smoother) }
        return prediction
    }

    /// The prediction of windows scored a table at a time (`scores(_:)`), smoothed as they come
    /// (`ModeSmoother.Stream`): the same as `prediction(windows:probabilities:sources:)` over them
    /// all, without holding every window's probabilities (its `probabilities` are left empty).
    public struct Stream {
        let classes: [Mode]
        let smooth: Bool
        var smoothing: ModeSmoother.Stream
        var sources: [Decider] = []

        /// The next table's windows (of one trace, in time order, each ending no earlier than
        /// the one before) and their scores.
        public mutating func add(_ table: FeatureTable, scored: (probabilities: [Double], sources: [Decider])) {
            let k = classes.count
            for (index, window) in table.windows.enumerated() {
                smoothing.add(
                    trace: window.trace, start: window.start, end: window.end,
                    probabilities: scored.probabilities[(index * k)..<((index + 1) * k)])
            }
            sources += scored.sources
        }

        /// The prediction of every window added (`windows`: the same windows, in order).
        public mutating func finish(_ windows: some WindowTimeline) -> Prediction {
            let smoothed = smoothing.finish(windows)
            let raw = smoothing.raw.map { classes[Int($0)] }
            return Prediction(
                classes: classes, probabilities: [], raw: raw, modes: smooth ? smoothed.map { classes[Int($0)] } : raw, sources: sources)
        }
    }

    /// A `Stream` of this predictor's classes and smoothing.
    public func stream() -> Stream {
        let classes = self.classes
        return Stream(
            classes: classes, smooth: smooth,
            smoothing: ModeSmoother.Stream(smoother, classes: classes.count, stillClass: classes.firstIndex(of: .still)))
    }

    /// The modes of `prediction`'s windows smoothed by `smoother`, from its probabilities, so
    /// smoothing options can be compared without predicting again.
    public func resmooth(_ prediction: Prediction, windows: some WindowTimeline, with smoother: ModeSmoother) -> [Mode] {
        smoother.smooth(
            windows: windows, probabilities: prediction.probabilities, classes: prediction.classes.count,
            stillClass: prediction.classes.firstIndex(of: .still)
        ).map { prediction.classes[$0] }
    }
}
