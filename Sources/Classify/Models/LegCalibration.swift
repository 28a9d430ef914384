import Features
import Foundation
import MobilityCore

/// How far a GPS leg model's probabilities are to be believed, learnt on legs its weights never
/// saw: a temperature that makes them calibrated, the share of the vehicle types' probability
/// a type needs before it is named (else the leg gets its family, `vehicle`), and the range of
/// each feature the training legs covered (a leg outside it is read from no example).
///
/// Both numbers are chosen on out-of-fold legs: each training data set predicted by a model
/// fitted on the others (by person, or by day for one person's data, when there is one data
/// set), and the choose-only legs (`LegTrainer.fit`'s `choosing`) by the model of every training
/// leg. A leg the model is scored on never chose them (`LegCrossValidation`).
public struct LegCalibration: Codable, Hashable, Sendable {
    /// Probabilities are `softmax(log p / temperature)` (Guo et al. 2017, "On calibration of
    /// modern neural networks", §4.2): above 1 they are softened, below 1 sharpened; the most
    /// probable mode never changes.
    public var temperature: Double
    /// The calibrated best vehicle type's share of the vehicle types' probability at or below
    /// which a vehicle leg is `vehicle` (its family), 0–1.
    public var typeThreshold: Double
    /// What the two were chosen on (data sets and the legs they held).
    public var chosenOn: String
    /// Per feature (`LegFeatures.names`), the 1st and 99th percentiles of the training legs (as
    /// recorded, thinned and replayed); NaN for a feature the model does not read.
    public var lower: [Double]
    public var upper: [Double]

    /// A leg with this many features or more outside the training range gets its family.
    public static let outOfRangeFeatures = 2
    /// The temperatures tried: 0.25 to 4, each 10 % above the last.
    public static let temperatures = (0...29).map { 0.25 * pow(1.1, Double($0)) }
    /// The thresholds tried, from "the best of three types" to "nearly sure".
    public static let thresholds = stride(from: 0.35, through: 0.9, by: 0.05).map { $0 }
    /// What a family answer is worth against the right type (1) and a wrong one (0) when the
    /// threshold is chosen: half. `vehicle` is right for the family and wrong for the type, so
    /// it is worth giving when a type is right less than half the time.
    public static let familyValue = 0.5

    public init(temperature: Double, typeThreshold: Double, chosenOn: String, lower: [Double], upper: [Double]) {
        (self.temperature, self.typeThreshold, self.chosenOn, self.lower, self.upper) = (temperature, typeThreshold, chosenOn, lower, upper)
    }

    private enum CodingKeys: String, CodingKey { case temperature, typeThreshold, chosenOn, lower, upper }

    // A feature the model does not read has no range: `null` in the file, as JSON has no NaN.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        temperature = try container.decode(Double.self, forKey: .temperature)
        typeThreshold = try container.decode(Double.self, forKey: .typeThreshold)
        chosenOn = try container.decode(String.self, forKey: .chosenOn)
        lower = try container.decode([Double?].self, forKey: .lower).map { $0 ?? .nan }
        upper = try container.decode([Double?].self, forKey: .upper).map { $0 ?? .nan }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(temperature, forKey: .temperature)
        try container.encode(typeThreshold, forKey: .typeThreshold)
        try container.encode(chosenOn, forKey: .chosenOn)
        try container.encode(lower.map { $0.isNaN ? nil : $0 }, forKey: .lower)
        try container.encode(upper.map { $0.isNaN ? nil : $0 }, forKey: .upper)
    }

    /// `probabilities` (rows × classes) at `temperature`.
    public static func scaled(_ probabilities: [Double], classes: Int, temperature: Double) -> [Double] {
        guard temperature != 1, classes > 0 else { return probabilities }
        var result = probabilities
        for row in 0..<(probabilities.count / classes) {
            let range = (row * classes)..<((row + 1) * classes)
            let logits = probabilities[range].map { log(max($0, 1e-12)) / temperature }
            let top = logits.max()!, exps = logits.map { exp($0 - top) }, sum = exps.reduce(0, +)
            for (offset, value) in exps.enumerated() { result[range.lowerBound + offset] = value / sum }
        }
        return result
    }

    /// The names of the features of `row` outside the training legs' range.
    public func outside(_ row: ArraySlice<Double>) -> [String] {
        zip(LegFeatures.names.indices, LegFeatures.names).compactMap { column, name in
            let value = row[row.startIndex + column]
            guard !lower[column].isNaN, !value.isNaN else { return nil }
            return value < lower[column] || value > upper[column] ? name : nil
        }
    }

    /// One out-of-fold leg: the uncalibrated probabilities of `classes`, its true mode and its labelled seconds.
    public struct Example: Sendable {
        public var probabilities: [Double]
        public var truth: Mode
        public var seconds: Double

        public init(probabilities: [Double], truth: Mode, seconds: Double) {
            (self.probabilities, self.truth, self.seconds) = (probabilities, truth, seconds)
        }
    }

    /// The temperature with the least time-weighted negative log-likelihood of `examples`
    /// (1 when there are none), and the threshold of most value (`familyValue`) at it.
    public static func fit(_ examples: [Example], classes: [Mode]) -> (temperature: Double, threshold: Double) {
        let scored = examples.filter { classes.contains($0.truth) }
        guard !scored.isEmpty else { return (1, 0.5) }
        let total = scored.reduce(0) { $0 + max($1.seconds, 1) }
        func loss(_ temperature: Double) -> Double {
            scored.reduce(0) { sum, example in
                let p = Self.scaled(example.probabilities, classes: classes.count, temperature: temperature)
                return sum - max(example.seconds, 1) / total * log(max(p[classes.firstIndex(of: example.truth)!], 1e-12))
            }
        }
        let temperature = temperatures.min { loss($0) < loss($1) }!
        let calibrated = scored.map {
            (
                Dictionary(
                    uniqueKeysWithValues: zip(classes, Self.scaled($0.probabilities, classes: classes.count, temperature: temperature))), $0
            )
        }
        func value(_ threshold: Double) -> Double {
            calibrated.reduce(0) { sum, pair in
                let (p, example) = pair
                let mode = LegTypeChoice.decide(p, threshold: threshold)
                let worth =
                    mode == example.truth ? 1 : mode == .vehicle && LegTypeChoice.vehicleTypes.contains(example.truth) ? familyValue : 0
                return sum + max(example.seconds, 1) * worth
            }
        }
        // Ties go to the lower threshold: the type is named unless withholding it is worth more.
        let threshold = thresholds.reduce(thresholds[0]) { value($1) > value($0) + 1e-9 ? $1 : $0 }
        return (temperature, threshold)
    }
}

/// The one decision of a leg's type from its GPS probabilities: the most probable mode, or
/// `vehicle` when that is a vehicle type whose share of the vehicle types' probability is at
/// or below the threshold. Used by `LegCalibration.fit` to choose the threshold and by
/// `LegModeRule` to decide, so what was chosen is what runs.
public enum LegTypeChoice {
    public static let vehicleTypes: Set<Mode> = [.car, .bus, .train]

    /// The best vehicle type's share of the vehicle types' probability in `p`, with the type.
    public static func typeShare(_ p: [Mode: Double]) -> (type: Mode, share: Double)? {
        let types = p.filter { vehicleTypes.contains($0.key) }
        guard let best = types.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }) else { return nil }
        let total = types.values.reduce(0, +)
        return (best.key, total > 0 ? best.value / total : 0)
    }

    /// The decided mode; nil without probabilities.
    public static func decide(_ p: [Mode: Double], threshold: Double) -> Mode? {
        guard let best = p.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }) else { return nil }
        if vehicleTypes.contains(best.key), let (_, share) = typeShare(p), share <= threshold { return .vehicle }
        return best.key
    }
}
