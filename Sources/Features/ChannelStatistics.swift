import CBLAS
import MobilityCore

/// Distribution statistics of one channel over a batch of windows: mean, std, percentiles
/// (as deviations from the window's mean, so that a phone's calibration offset, which shifts
/// |a| by up to a few tenths of m/s², stays in the mean alone), range, rms, skewness, excess
/// kurtosis and mean-crossing rate.
///
/// The means are one `dgemv` over the stacked windows; the higher moments and crossings are
/// one fused pass per row (a BLAS call would need the powers materialised first, which costs
/// more than it saves); percentiles sort a copy of each row. A constant window has zero
/// spread, and its skewness and kurtosis are 0 rather than undefined.
struct ChannelStatistics {
    static let count = FeatureSchema.momentNames.count + 3
    let samplesPerWindow: Int
    let rateHz: Double

    /// Computes the statistics of each row of `block` (rows × samplesPerWindow) into `output`
    /// (rows × outputStride, starting at column `column`) and replaces `block` by its
    /// mean-removed rows, which the spectral stage takes next.
    func compute(block: inout [Double], rows: Int, into output: inout [Double], outputStride: Int, column: Int) {
        let n = samplesPerWindow
        var means = [Double](repeating: 0, count: rows)
        let ones = [Double](repeating: 1 / Double(n), count: n)
        cblas_dgemv(CblasRowMajor, CblasNoTrans, Int32(rows), Int32(n), 1, block, Int32(n), ones, 1, 0, &means, 1)
        var sorted = [Double](repeating: 0, count: n)
        block.withUnsafeMutableBufferPointer { values in
            for row in 0..<rows {
                let base = row * n
                for i in 0..<n { sorted[i] = values[base + i] }
                sorted.sort()
                let mean = means[row]
                var m2 = 0.0, m3 = 0.0, m4 = 0.0, crossings = 0
                var previous = values[base] - mean
                for i in 0..<n {
                    let d = values[base + i] - mean
                    values[base + i] = d
                    let d2 = d * d
                    m2 += d2; m3 += d2 * d; m4 += d2 * d2
                    if (d > 0) != (previous > 0) && i > 0 { crossings += 1 }
                    previous = d
                }
                m2 /= Double(n); m3 /= Double(n); m4 /= Double(n)
                let spread = m2 > 1e-18 * max(1, mean * mean)
                if !spread { m2 = 0 }
                let std = m2.squareRoot()
                let out = row * outputStride + column
                let stats = [
                    mean, std,
                    Quantile.sorted(sorted, 0.10) - mean, Quantile.sorted(sorted, 0.25) - mean,
                    Quantile.sorted(sorted, 0.50) - mean, Quantile.sorted(sorted, 0.75) - mean,
                    Quantile.sorted(sorted, 0.90) - mean,
                    sorted[n - 1] - sorted[0], (mean * mean + m2).squareRoot(),
                    spread ? m3 / (m2 * std) : 0, spread ? m4 / (m2 * m2) - 3 : 0,
                    spread ? Double(crossings) * rateHz / Double(n) : 0
                ]
                for (offset, value) in stats.enumerated() { output[out + offset] = value }
            }
        }
    }
}
