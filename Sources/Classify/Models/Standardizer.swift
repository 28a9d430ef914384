import Foundation

/// Feature preprocessing fitted on training windows and stored in the model: a signed
/// logarithm, sign(x)·ln(1 + |x|), which tames the heavy tails of spreads and energies so a
/// linear model sees them on a comparable scale, then standardisation to zero mean and unit
/// variance per column. Missing features (NaN) become 0, the training mean, after scaling.
/// Columns that never had a value in training (GPS on IMU-only data) get weight 0 in effect.
public struct Standardizer: Codable, Hashable, Sendable {
    public var means: [Double]
    public var scales: [Double]
    /// Columns that had a value in some training window; the others always transform to 0, so
    /// the model ignores them (GPS columns of a model trained on IMU-only recordings).
    public var present: [Bool]

    public init(means: [Double], scales: [Double], present: [Bool]) {
        self.means = means
        self.scales = scales
        self.present = present
    }

    /// Fits on `rows` rows of `columns` values (row-major), ignoring NaN.
    public init(fitting values: [Double], rows: Int, columns: Int) {
        var sums = [Double](repeating: 0, count: columns), squares = sums, counts = sums
        for row in 0..<rows {
            for column in 0..<columns {
                let value = Self.compress(values[row * columns + column])
                guard value.isFinite else { continue }
                sums[column] += value; squares[column] += value * value; counts[column] += 1
            }
        }
        let means = (0..<columns).map { counts[$0] > 0 ? sums[$0] / counts[$0] : 0 }
        self.means = means
        present = counts.map { $0 > 0 }
        scales = (0..<columns).map { column in
            guard counts[column] > 1 else { return 1 }
            let variance = squares[column] / counts[column] - means[column] * means[column]
            return variance > 1e-12 ? variance.squareRoot() : 1
        }
    }

    /// Transformed copy of `values` (row-major, `means.count` columns).
    public func transform(_ values: [Double]) -> [Double] {
        let columns = means.count
        var result = values
        for index in result.indices {
            let column = index % columns
            let value = (Self.compress(result[index]) - means[column]) / scales[column]
            result[index] = value.isFinite && present[column] ? value : 0
        }
        return result
    }

    static func compress(_ x: Double) -> Double {
        x < 0 ? -log1p(-x) : log1p(x)
    }
}
