import Foundation
import MobilityCore

/// The measures a leg-mode claim across people and cities is judged by, for one data set's
/// held-out legs (or all of them pooled), each time-weighted (a 40-minute ride weighs more
/// than a 2-minute walk) with its 95 % interval over the groups the legs were held out by
/// (persons; days for one person's data):
///
/// - `timeRight`: the share of labelled time given the right mode (`vehicle` is wrong);
/// - `onFootAsVehicle`: the share of on-foot time called a vehicle (a type or `vehicle`);
/// - `vehicleTypeMacroF1`: macro-F1 over the vehicle types that occur as truth (car, bus,
///   train; `vehicle` is wrong for each), counted per leg, beside always-`train`'s;
/// - `familyRight`: the share of labelled time in the right family (on foot, bike, vehicle;
///   `vehicle` is right for a car, bus or train);
/// - `vehicleAnswered`: the share of labelled vehicle time answered `vehicle` only;
/// - `calibrationError`: the expected calibration error of the leg model's most probable
///   mode (15 equal bins of its calibrated probability, time-weighted; Guo et al. 2017, eq. 3).
public struct LegMeasures: Codable, Hashable, Sendable {
    public var dataset: String
    public var legs: Int
    /// The groups the intervals resample.
    public var groups: Int
    public var timeRight: Measure
    @NullEncodable public var onFootAsVehicle: Measure?
    @NullEncodable public var vehicleTypeMacroF1: Measure?
    @NullEncodable public var alwaysTrainVehicleTypeMacroF1: Double?
    public var familyRight: Measure
    @NullEncodable public var vehicleAnswered: Measure?
    @NullEncodable public var calibrationError: Measure?

    public struct Measure: Codable, Hashable, Sendable {
        public var value: Double
        @NullEncodable public var interval: GroupBootstrap.Interval?

        public var text: String { String(format: "%.3f", value) + EvaluationReport.bracket(interval) }
    }

    public static let calibrationBins = 15

    /// The family of a mode: on foot, bike or vehicle (every motorised type and `vehicle`).
    public static func family(_ mode: Mode) -> Mode {
        switch mode {
        case .walk, .bike, .still: return mode
        default: return .vehicle
        }
    }

    /// The measures of `outcomes` (legs with their seconds; `smoothed` is the decided mode,
    /// `raw` the most probable and `confidence` its probability), named `dataset`.
    public init(_ dataset: String, _ outcomes: [WindowOutcome], bootstrap: GroupBootstrap = GroupBootstrap()) {
        self.dataset = dataset
        legs = outcomes.count
        groups = Set(outcomes.map { $0.group ?? $0.person ?? $0.device }).count
        func measure(_ statistic: @escaping ([WindowOutcome]) -> Double?) -> Measure? {
            statistic(outcomes).map { Measure(value: $0, interval: bootstrap.interval(outcomes, statistic)) }
        }
        timeRight = measure { Self.share($0) { $0.smoothed == $0.truth } }!
        onFootAsVehicle = measure { Self.share($0.filter { $0.truth == .walk }) { Self.family($0.smoothed) == .vehicle } }
        vehicleTypeMacroF1 = measure { Self.vehicleTypeMacroF1($0, \.smoothed) }
        alwaysTrainVehicleTypeMacroF1 = Self.vehicleTypeMacroF1(
            outcomes.map {
                var o = $0; o.baselineRaw = .train; return o
            }, \.baselineRaw)
        familyRight = measure { Self.share($0) { Self.family($0.smoothed) == Self.family($0.truth) } }!
        vehicleAnswered = measure { Self.share($0.filter { Self.family($0.truth) == .vehicle }) { $0.smoothed == .vehicle } }
        calibrationError = measure(Self.calibrationError)
    }

    /// The share of the outcomes' seconds for which `right` holds; nil without any.
    static func share(_ outcomes: [WindowOutcome], _ right: (WindowOutcome) -> Bool) -> Double? {
        let total = outcomes.reduce(0) { $0 + ($1.seconds ?? 0) }
        guard total > 0 else { return nil }
        return outcomes.reduce(0) { $0 + (right($1) ? $1.seconds ?? 0 : 0) } / total
    }

    static func vehicleTypeMacroF1(_ outcomes: [WindowOutcome], _ predicted: KeyPath<WindowOutcome, Mode>) -> Double? {
        let matrix = ConfusionMatrix(outcomes, predicted)
        let types = [Mode.car, .bus, .train].filter { matrix.scores(for: $0).support > 0 }
        guard !types.isEmpty else { return nil }
        return types.reduce(0) { $0 + matrix.scores(for: $1).f1 } / Double(types.count)
    }

    /// Σ over bins of the bin's share of time × |its time-weighted accuracy − its mean confidence|.
    static func calibrationError(_ outcomes: [WindowOutcome]) -> Double? {
        let scored = outcomes.filter { $0.confidence != nil && ($0.seconds ?? 0) > 0 }
        let total = scored.reduce(0) { $0 + $1.seconds! }
        guard total > 0 else { return nil }
        var weight = [Double](repeating: 0, count: calibrationBins), right = weight, confidence = weight
        for outcome in scored {
            let bin = min(calibrationBins - 1, Int(outcome.confidence! * Double(calibrationBins)))
            weight[bin] += outcome.seconds!
            confidence[bin] += outcome.seconds! * outcome.confidence!
            if outcome.raw == outcome.truth { right[bin] += outcome.seconds! }
        }
        return weight.indices.reduce(0) { sum, bin in
            weight[bin] > 0 ? sum + weight[bin] / total * abs(right[bin] / weight[bin] - confidence[bin] / weight[bin]) : sum
        }
    }

    /// One line per measure, for `evaluate`'s text.
    public var text: String {
        var parts = ["time right \(timeRight.text)", "family right \(familyRight.text)"]
        if let onFootAsVehicle { parts.append("on foot called a vehicle \(onFootAsVehicle.text)") }
        if let vehicleTypeMacroF1 {
            parts.append(
                "vehicle-type macro-F1 \(vehicleTypeMacroF1.text)"
                    + (alwaysTrainVehicleTypeMacroF1.map { String(format: " (always train %.3f)", $0) } ?? ""))
        }
        if let vehicleAnswered { parts.append("`vehicle` \(vehicleAnswered.text) of vehicle time") }
        if let calibrationError { parts.append("ECE \(calibrationError.text)") }
        return "  \(dataset): \(legs) legs, \(groups) groups: " + parts.joined(separator: "; ")
    }
}

extension GroupBootstrap {
    /// The percentile interval of `statistic` over replicates of `outcomes`' groups (persons,
    /// or days: `WindowOutcome.group`); nil with fewer than two groups or where it is undefined.
    public func interval(_ outcomes: [WindowOutcome], _ statistic: ([WindowOutcome]) -> Double?) -> Interval? {
        let perGroup = Dictionary(grouping: outcomes) { $0.group ?? $0.person ?? $0.device }
        let groups = perGroup.keys.sorted()
        guard groups.count >= 2, replicates > 0 else { return nil }
        var generator = SeededGenerator(seed: seed)
        var values: [Double] = []
        for _ in 0..<replicates {
            var sample: [WindowOutcome] = []
            for _ in groups.indices { sample += perGroup[groups[Int(generator.next() % UInt64(groups.count))]]! }
            if let value = statistic(sample) { values.append(value) }
        }
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return nil }
        let tail = (1 - level) / 2
        return Interval(lower: Quantile.sorted(sorted, tail), upper: Quantile.sorted(sorted, 1 - tail))
    }
}
