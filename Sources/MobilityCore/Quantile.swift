/// Quantiles by linear interpolation between closest ranks (numpy's default, Hyndman & Fan
/// type 7): the one definition the features, ride summaries and evaluation intervals share.
public enum Quantile {
    /// The `q` quantile (0…1) of values already sorted ascending; the array must not be empty.
    public static func sorted(_ sorted: [Double], _ q: Double) -> Double {
        let position = q * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, sorted.count - 1)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - Double(lower))
    }

    /// The `q` quantile of `values` where each value counts `weights` times: the smallest value
    /// whose cumulative weight reaches q of the total (no interpolation: a duration-weighted
    /// percentile of speeds). `values` must not be empty.
    public static func weighted(_ values: [Double], weights: [Double], _ q: Double) -> Double {
        let order = values.indices.sorted { values[$0] < values[$1] }
        let total = weights.reduce(0, +)
        var cumulative = 0.0
        for index in order {
            cumulative += weights[index]
            if cumulative >= q * total { return values[index] }
        }
        return values[order.last!]
    }

    /// The median of `values` in any order: type 7 at q = 0.5, with an even count's two middle
    /// values averaged as `(a + b) / 2` (the textbook median, as pandas' `median()` gives it);
    /// nil for no values.
    public static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The `q` quantile of `values` in any order; nil for no values.
    public static func of(_ values: [Double], _ q: Double) -> Double? {
        values.isEmpty ? nil : sorted(values.sorted(), q)
    }
}

extension Quantile {
    /// Values handed one at a time whose quantiles are then `Quantile.sorted` of them all, to
    /// the bit. They are kept as counts of distinct values while there are at most
    /// `distinctLimit` of them (a GPS logger's fix intervals take a few: 1 s, 2 s, 5 s), so a
    /// leg as long as a year's track needs no array of a value per fix; past that, as an array.
    /// Values must not be NaN; -0.0 counts as 0.0.
    public struct Tally: Sendable {
        public let distinctLimit: Int
        public private(set) var count = 0
        private var counts: [Double: Int] = [:]
        private var values: [Double]?

        public init(distinctLimit: Int = 4_096) { self.distinctLimit = distinctLimit }

        public mutating func add(_ value: Double) {
            count += 1
            if values != nil { return values!.append(value) }
            counts[value, default: 0] += 1
            guard counts.count > distinctLimit else { return }
            var all: [Double] = []
            all.reserveCapacity(count)
            for (value, times) in counts { all.append(contentsOf: repeatElement(value, count: times)) }
            (values, counts) = (all, [:])
        }

        /// The `q` quantile (0…1) of the values added; nil when none was.
        public func quantile(_ q: Double) -> Double? {
            guard count > 0 else { return nil }
            if let values { return Quantile.sorted(values.sorted(), q) }
            let position = q * Double(count - 1)
            let lower = Int(position.rounded(.down)), upper = min(lower + 1, count - 1)
            var (low, high, seen) = (0.0, 0.0, 0)
            for value in counts.keys.sorted() {
                let next = seen + counts[value]!
                if (seen..<next).contains(lower) { low = value }
                if (seen..<next).contains(upper) {
                    high = value
                    break
                }
                seen = next
            }
            return low + (high - low) * (position - Double(lower))
        }
    }
}
