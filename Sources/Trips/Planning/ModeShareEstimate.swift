import MobilityCore

/// Each mode's share of trips with its 95 % interval, and, given the classifier's confusion
/// (`ConfusionCorrection`), the share corrected for it with its own interval.
///
/// The share is a ratio over persons (a person's trips are not independent of each other), so
/// the interval comes from a bootstrap over persons: the persons drawn again with replacement
/// `replicates` times, the share recomputed each time, and the 2.5th and 97.5th percentiles
/// taken (Efron & Tibshirani, *An Introduction to the Bootstrap*, 1993, §13.3, the percentile
/// interval; the cluster bootstrap of Davison & Hinkley, 1997, §3.8). The corrected share's
/// replicates also draw the evaluation again (`ConfusionCorrection.resampled`), so its
/// interval holds the uncertainty of the measured confusion as well. The generator is seeded
/// with a constant and persons are taken in name order, so the same data give the same
/// interval on every run and on Spark.
public struct ModeShareEstimate: Sendable {
    public struct Share: Sendable, Equatable {
        public var mode: String
        public var trips: Int, persons: Int
        /// The share and its 95 % interval (nil with fewer than two persons: one person gives no
        /// spread over persons).
        public var share: Double, low: Double?, high: Double?
        /// Nil without a confusion matrix.
        public var corrected: Double?, correctedLow: Double?, correctedHigh: Double?
    }

    public var shares: [Share]
    public let replicates: Int

    /// The default replicates: the percentiles of 1,000 are within about ±0.005 of their limit
    /// for shares of trips at the sizes of a city's panel.
    public static let defaultReplicates = 1000

    /// `persons`: each person's trips per mode name. `modes`: the modes a trip may truly have
    /// (default: those of `persons`); a band without a mode's trips still has its share
    /// estimated, as zero observed trips are evidence too. Modes in `Mode` order, `unknown` last.
    public init(
        persons: [String: [String: Int]], modes: [String]? = nil, correction: ConfusionCorrection? = nil,
        replicates: Int = Self.defaultReplicates, seed: UInt64 = 54
    ) {
        self.replicates = replicates
        let names = persons.keys.sorted()
        // The data's modes only: a mode the evaluation knows but no trip has (still, for one) is no
        // trip's true mode either.
        let order = Set(modes ?? persons.values.flatMap(\.keys)).sorted { (modeRank($0), $0) < (modeRank($1), $1) }
        let rows = names.map { name in order.map { Double(persons[name]![$0] ?? 0) } }
        func add(_ drawn: [Int]) -> [Double] {
            var sum = Array(repeating: 0.0, count: order.count)
            for person in drawn {
                let row = rows[person]
                for m in 0..<row.count { sum[m] += row[m] }
            }
            return sum
        }
        func normalised(_ counts: [Double]) -> [Double] {
            let total = counts.reduce(0, +)
            return counts.map { total > 0 ? $0 / total : 0 }
        }
        let observed = add(Array(names.indices))
        let point = normalised(observed)
        let sampler = correction.map { ConfusionCorrection.Sampler($0, modes: order) }
        let corrected = sampler.map {
            ConfusionCorrection.corrected(observed: observed, confusion: ConfusionCorrection.normalised($0.total))
        }
        var generator = SeededGenerator(seed: seed)
        var raw: [[Double]] = Array(repeating: [], count: order.count), fixed = raw
        for _ in 0..<(names.count < 2 ? 0 : replicates) {
            let drawn = names.indices.map { _ in Int.random(in: 0..<names.count, using: &generator) }
            let counts = add(drawn)
            for (m, share) in normalised(counts).enumerated() { raw[m].append(share) }
            if let sampler {
                let shares = ConfusionCorrection.corrected(observed: counts, confusion: sampler.draw(using: &generator))
                for (m, share) in shares.enumerated() { fixed[m].append(share) }
            }
        }
        func limits(_ values: [Double]) -> (Double?, Double?) {
            let sorted = values.sorted()
            return sorted.isEmpty ? (nil, nil) : (Quantile.sorted(sorted, 0.025), Quantile.sorted(sorted, 0.975))
        }
        shares = order.indices.map { m in
            let (low, high) = limits(raw[m])
            var share = Share(
                mode: order[m], trips: Int(observed[m]), persons: rows.filter { $0[m] > 0 }.count, share: point[m], low: low, high: high)
            if let corrected {
                let (low, high) = limits(fixed[m])
                (share.corrected, share.correctedLow, share.correctedHigh) = (corrected[m], low, high)
            }
            return share
        }
    }
}
