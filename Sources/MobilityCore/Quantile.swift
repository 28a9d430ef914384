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
