import MobilityCore

/// Confidence intervals over people: the persons (a device where none is named) are resampled
/// with replacement, each replicate's windows pooled into one confusion matrix, and the interval is
/// the central `level` share of the replicates' scores (the percentile bootstrap; Efron &
/// Tibshirani 1993, ch. 13). Resampling people rather than windows is what makes the interval
/// say how the score would move with other people: windows of one person are not independent
/// draws, and with a handful of people the interval is wide, as it should be. Outcomes held
/// out by day (`WindowOutcome.group`, one person's data) resample days instead: the interval
/// then says how the score moves with other days of that person, never with other people.
public struct GroupBootstrap: Sendable {
    /// Replicates drawn. Default 1000.
    public var replicates = 1000
    /// Central share of the replicates the interval holds. Default 0.95.
    public var level = 0.95
    public var seed: UInt64 = 42

    public init(replicates: Int = 1000, level: Double = 0.95, seed: UInt64 = 42) {
        self.replicates = replicates
        self.level = level
        self.seed = seed
    }

    public struct Interval: Codable, Hashable, Sendable {
        public var lower: Double
        public var upper: Double
    }

    public struct Intervals: Sendable {
        @NullEncodable public var accuracy: Interval?
        @NullEncodable public var macroF1: Interval?
        /// Per class: over the replicates in which the class occurs as truth.
        public var f1: [Mode: Interval] = [:]

        public init(accuracy: Interval? = nil, macroF1: Interval? = nil, f1: [Mode: Interval] = [:]) {
            self.accuracy = accuracy
            self.macroF1 = macroF1
            self.f1 = f1
        }
    }

    /// Intervals of accuracy, macro-F1 and per-class F1 of the predictions `predicted` picks.
    /// Empty (all nil) with fewer than two devices: one person gives no spread over people.
    public func intervals(_ outcomes: [WindowOutcome], _ predicted: KeyPath<WindowOutcome, Mode>) -> Intervals {
        var perGroup: [String: [ModePair: Int]] = [:]
        for outcome in outcomes {
            perGroup[outcome.group ?? outcome.person ?? outcome.device, default: [:]][
                ModePair(truth: outcome.truth, predicted: outcome[keyPath: predicted]), default: 0] += 1
        }
        let groups = perGroup.keys.sorted()
        guard groups.count >= 2, replicates > 0 else { return Intervals() }
        var generator = SeededGenerator(seed: seed)
        var accuracies: [Double] = [], macros: [Double] = [], f1s: [Mode: [Double]] = [:]
        for _ in 0..<replicates {
            var matrix = ConfusionMatrix<Mode>()
            for _ in groups.indices {
                let group = groups[Int(generator.next() % UInt64(groups.count))]
                for (pair, count) in perGroup[group]! { matrix.add(truth: pair.truth, predicted: pair.predicted, count: count) }
            }
            accuracies.append(matrix.accuracy)
            macros.append(matrix.macroF1)
            for label in matrix.labels where matrix.scores(for: label).support > 0 {
                f1s[label, default: []].append(matrix.scores(for: label).f1)
            }
        }
        return Intervals(accuracy: interval(accuracies), macroF1: interval(macros), f1: f1s.compactMapValues(interval))
    }

    /// The share of `seconds` that is right (time-weighted agreement, as a leg scoreboard
    /// weighs a 40-minute ride above a 2-minute one), with its interval over the groups
    /// (persons); nil interval with fewer than two groups.
    public func agreement(_ items: [(group: String, seconds: Double, right: Bool)]) -> (share: Double, interval: Interval?) {
        var perGroup: [String: (right: Double, all: Double)] = [:]
        for item in items {
            perGroup[item.group, default: (0, 0)].all += item.seconds
            if item.right { perGroup[item.group, default: (0, 0)].right += item.seconds }
        }
        let total = perGroup.values.reduce(0) { $0 + $1.all }, right = perGroup.values.reduce(0) { $0 + $1.right }
        let share = total > 0 ? right / total : 0
        let groups = perGroup.keys.sorted()
        guard groups.count >= 2, replicates > 0 else { return (share, nil) }
        var generator = SeededGenerator(seed: seed)
        var shares: [Double] = []
        for _ in 0..<replicates {
            var (sumRight, sumAll) = (0.0, 0.0)
            for _ in groups.indices {
                let part = perGroup[groups[Int(generator.next() % UInt64(groups.count))]]!
                (sumRight, sumAll) = (sumRight + part.right, sumAll + part.all)
            }
            shares.append(sumAll > 0 ? sumRight / sumAll : 0)
        }
        return (share, interval(shares))
    }

    /// Time-weighted agreement of `predicted` over outcomes that carry their seconds (legs),
    /// each in the group the other intervals resample; nil when none carries seconds.
    public func agreement(_ outcomes: [WindowOutcome], _ predicted: KeyPath<WindowOutcome, Mode>) -> (share: Double, interval: Interval?)? {
        let timed = outcomes.filter { $0.seconds != nil }
        guard !timed.isEmpty else { return nil }
        return agreement(timed.map { ($0.group ?? $0.person ?? $0.device, $0.seconds!, $0[keyPath: predicted] == $0.truth) })
    }

    private func interval(_ values: [Double]) -> Interval? {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return nil }
        let tail = (1 - level) / 2
        return Interval(lower: Quantile.sorted(sorted, tail), upper: Quantile.sorted(sorted, 1 - tail))
    }

    private struct ModePair: Hashable { var truth: Mode; var predicted: Mode }
}
