import MobilityCore

/// Shares of modes corrected for a classifier's known confusion.
///
/// The classifier's confusion, measured on held-out people (`pipeline evaluate`), gives
/// C[t][o] = P(predicted o | true t), each true mode's row of counts normalised. Trips whose
/// true modes have shares p are then predicted with shares q = Cᵀp. Given the observed counts,
/// the shares p that most likely produced them (the maximum-likelihood estimate with C known)
/// are found by EM, p_t ← Σ_o n_o · C[t][o] p_t / Σ_t' C[t'][o] p_t' / Σ n: the iteration of
/// Saerens, Latinne & Decaestecker, "Adjusting the outputs of a classifier to new a priori
/// probabilities", *Neural Computation* 14 (2002), with the confusion matrix in place of
/// posteriors (also Buonaccorsi, *Measurement Error*, 2010, §3.3). Unlike inverting Cᵀ, every
/// iterate stays a share vector (non-negative, summing to 1), so no answer is clipped.
///
/// A mode the data hold but the evaluation never saw as a true mode is taken as always
/// predicted right (its row is the identity): nothing is known of its confusion, and the
/// output says which modes the matrix covers.
public struct ConfusionCorrection: Sendable, Equatable {
    /// One evaluation count: how many units of true mode `truth` were predicted `predicted`,
    /// and whose they were (nil: not known; then the rows are resampled as multinomials).
    public struct Count: Sendable, Equatable {
        public var person: String?, truth: String, predicted: String, count: Int
        public init(person: String? = nil, truth: String, predicted: String, count: Int) {
            (self.person, self.truth, self.predicted, self.count) = (person, truth, predicted, count)
        }
    }

    public var counts: [Count]
    /// What the matrix was measured on, for the output (the evaluation's file and data).
    public var source: String

    public init(counts: [Count], source: String) {
        (self.counts, self.source) = (counts.filter { $0.count > 0 }, source)
    }

    /// The true modes the evaluation saw.
    public var modes: [String] {
        Set(counts.map(\.truth)).sorted { modeRank($0) < modeRank($1) || (modeRank($0) == modeRank($1) && $0 < $1) }
    }

    /// C over `modes`, rows normalised; a mode without counts is the identity row.
    public func probabilities(over modes: [String]) -> [[Double]] {
        Self.normalised(Sampler(self, modes: modes).total)
    }

    /// The shares over `modes` most likely to have produced `observed` (counts per mode, same
    /// order) through this confusion; the observed shares where there is nothing to correct.
    public func corrected(observed: [Double], modes: [String]) -> [Double] {
        Self.corrected(observed: observed, confusion: probabilities(over: modes))
    }

    /// EM over a row-normalised confusion `c` (rows true, columns predicted).
    static func corrected(observed: [Double], confusion c: [[Double]]) -> [Double] {
        let n = observed.count
        let total = observed.reduce(0, +)
        guard total > 0 else { return observed }
        var p = Array(repeating: 1 / Double(n), count: n)
        var next = p
        for _ in 0..<Self.maximumIterations {
            for t in 0..<n { next[t] = 0 }
            for o in 0..<n where observed[o] > 0 {
                var denominator = 0.0
                for t in 0..<n { denominator += c[t][o] * p[t] }
                guard denominator > 0 else { continue }
                let scale = observed[o] / denominator
                for t in 0..<n { next[t] += scale * c[t][o] * p[t] }
            }
            var sum = 0.0
            for t in 0..<n { sum += next[t] }
            guard sum > 0 else { return observed.map { $0 / total } }
            var change = 0.0
            for t in 0..<n {
                next[t] /= sum
                change = max(change, abs(next[t] - p[t]))
            }
            swap(&p, &next)
            if change < Self.tolerance { break }
        }
        return p
    }

    /// Rows scaled to sum to 1; a row of zeros becomes the identity row.
    static func normalised(_ counts: [[Double]]) -> [[Double]] {
        counts.indices.map { t in
            let total = counts[t].reduce(0, +)
            return total > 0 ? counts[t].map { $0 / total } : counts.indices.map { $0 == t ? 1 : 0 }
        }
    }

    /// The evaluation over a fixed list of modes, ready to be drawn again for bootstrap
    /// replicates: its persons with replacement when every count names one, else each true
    /// mode's row as a multinomial of its total.
    struct Sampler {
        /// Each person's counts (rows true, columns predicted); one unit without persons.
        var units: [[[Double]]]
        var total: [[Double]]
        var byPerson: Bool

        init(_ correction: ConfusionCorrection, modes: [String]) {
            let index = Dictionary(uniqueKeysWithValues: modes.enumerated().map { ($1, $0) })
            let empty = Array(repeating: Array(repeating: 0.0, count: modes.count), count: modes.count)
            byPerson = !correction.counts.isEmpty && correction.counts.allSatisfy { $0.person != nil }
            var units: [String: [[Double]]] = [:]
            var total = empty
            // A prediction outside `modes` (a mode no trip was counted as) keeps its place in its row's total.
            var outside = Array(repeating: 0.0, count: modes.count)
            for count in correction.counts {
                guard let t = index[count.truth] else { continue }
                let key = byPerson ? count.person! : ""
                if let o = index[count.predicted] {
                    units[key, default: empty][t][o] += Double(count.count)
                    total[t][o] += Double(count.count)
                } else {
                    outside[t] += Double(count.count)
                }
            }
            self.units = units.keys.sorted().map { units[$0]! }
            self.total = total
            if outside.contains(where: { $0 > 0 }) {
                // Kept as a column of its own would change the matrix's shape; the row is scaled
                // instead, so its predicted modes keep their shares of the whole row.
                for t in modes.indices where outside[t] > 0 {
                    let inside = total[t].reduce(0, +)
                    guard inside > 0 else { continue }
                    let scale = (inside + outside[t]) / inside
                    self.total[t] = total[t].map { $0 * scale }
                }
            }
        }

        /// One replicate's row-normalised confusion.
        func draw(using generator: inout SeededGenerator) -> [[Double]] {
            let n = total.count
            var drawn = Array(repeating: Array(repeating: 0.0, count: n), count: n)
            if byPerson {
                for _ in units.indices {
                    let unit = units[Int.random(in: 0..<units.count, using: &generator)]
                    for t in 0..<n { for o in 0..<n { drawn[t][o] += unit[t][o] } }
                }
            } else {
                for t in 0..<n {
                    let row = total[t], size = Int(row.reduce(0, +).rounded())
                    guard size > 0 else { continue }
                    var cumulative: [Double] = []
                    for value in row { cumulative.append((cumulative.last ?? 0) + value) }
                    for _ in 0..<size {
                        let u = generator.nextUnit() * cumulative[n - 1]
                        drawn[t][cumulative.firstIndex { u < $0 } ?? n - 1] += 1
                    }
                }
            }
            return ConfusionCorrection.normalised(drawn)
        }
    }

    /// EM stops here at the latest; it converges in tens to a few hundred steps on real matrices.
    public static let maximumIterations = 5000
    /// EM stops when no share moves by more than this between steps (tables print 4 decimals).
    public static let tolerance = 1e-10
}
