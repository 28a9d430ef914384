import CBLAS
import Foundation

/// Spectral features of mean-removed windows, computed as matrix products so OpenBLAS does
/// the work: the stacked windows times a precomputed real DFT basis (`dgemm`, cosines and
/// sines side by side) give every window's power spectrum at once; the power spectra times a
/// cosine table give the circular autocorrelation at the step-period lags (Wiener–Khinchin).
///
/// Per window: the share of spectral energy in each band of `FeatureSchema.bandsHz`, the
/// dominant frequency, the spectral entropy normalised to [0, 1], and the highest local
/// maximum of the normalised autocorrelation at lags 0.3–1.5 s (a step period; walking
/// cadence is 1.6–2.2 steps/s) with its lag. A window without energy gets zeros.
///
/// A GEMM against the basis costs O(n²) per window where an FFT costs O(n log n); at n = 250
/// the GEMM runs at the machine's full FLOP rate for a whole batch and is measured faster
/// than calling an FFT window by window (see the benchmark).
struct SpectralFeatures {
    static let count = FeatureSchema.bandsHz.count + 4
    let samplesPerWindow: Int
    let rateHz: Double
    /// Frequency bins 0…n/2.
    let bins: Int
    /// n × 2·bins, row-major: cos(2πki/n) then sin(2πki/n).
    let basis: [Double]
    /// The lags searched for a step period, in samples.
    let lags: [Int]
    /// bins × (1 + lags.count): weights of each bin's power in r(0) and r(lag).
    let lagTable: [Double]
    /// For each band, the bins it sums.
    let bandBins: [Range<Int>]

    init(samplesPerWindow n: Int, rateHz: Double) {
        samplesPerWindow = n
        self.rateHz = rateHz
        bins = n / 2 + 1
        var basis = [Double](repeating: 0, count: n * 2 * bins)
        for i in 0..<n {
            for k in 0..<bins {
                let angle = 2 * Double.pi * Double(k * i % n) / Double(n)
                basis[i * 2 * bins + k] = cos(angle)
                basis[i * 2 * bins + bins + k] = sin(angle)
            }
        }
        self.basis = basis
        let shortest = max(1, Int((0.3 * rateHz).rounded())), longest = min(n / 2, Int((1.5 * rateHz).rounded()))
        lags = shortest <= longest ? Array(shortest...longest) : []
        let columns = 1 + lags.count
        var table = [Double](repeating: 0, count: bins * columns)
        for k in 0..<bins {
            let weight = (k == 0 || (n % 2 == 0 && k == n / 2)) ? 1.0 : 2.0
            for (j, lag) in ([0] + lags).enumerated() {
                table[k * columns + j] = weight * cos(2 * Double.pi * Double(k * lag % n) / Double(n)) / Double(n)
            }
        }
        lagTable = table
        let binHz = rateHz / Double(n), bins = self.bins
        bandBins = FeatureSchema.bandsHz.enumerated().map { index, band in
            let lower = max(1, Int((band.0 / binHz).rounded(.up)))
            let isLast = index == FeatureSchema.bandsHz.count - 1
            let upper = min(bins, isLast ? bins : Int((band.1 / binHz).rounded(.up)))
            return lower..<max(lower, upper)
        }
    }

    /// `centered` is rows × n of mean-removed windows; writes `count` values per row.
    func compute(centered: [Double], rows: Int, into output: inout [Double], outputStride: Int, column: Int) {
        let n = samplesPerWindow, width = 2 * bins
        var transform = [Double](repeating: 0, count: rows * width)
        cblas_dgemm(
            CblasRowMajor, CblasNoTrans, CblasNoTrans, Int32(rows), Int32(width), Int32(n),
            1, centered, Int32(n), basis, Int32(width), 0, &transform, Int32(width))
        var power = [Double](repeating: 0, count: rows * bins)
        for row in 0..<rows {
            for k in 0..<bins {
                let re = transform[row * width + k], im = transform[row * width + bins + k]
                power[row * bins + k] = re * re + im * im
            }
        }
        let lagColumns = 1 + lags.count
        var autocorrelation = [Double](repeating: 0, count: rows * lagColumns)
        cblas_dgemm(
            CblasRowMajor, CblasNoTrans, CblasNoTrans, Int32(rows), Int32(lagColumns), Int32(bins),
            1, power, Int32(bins), lagTable, Int32(lagColumns), 0, &autocorrelation, Int32(lagColumns))
        for row in 0..<rows {
            let spectrum = power[(row * bins + 1)..<(row * bins + bins)]
            let total = spectrum.reduce(0, +)
            let out = row * outputStride + column
            guard total > 1e-18 else {
                for offset in 0..<Self.count { output[out + offset] = 0 }
                continue
            }
            for (band, range) in bandBins.enumerated() {
                output[out + band] = range.reduce(0) { $0 + power[row * bins + $1] } / total
            }
            var dominant = 1, entropy = 0.0
            for k in 1..<bins {
                let p = power[row * bins + k] / total
                if p > 0 { entropy -= p * log(p) }
                if power[row * bins + k] > power[row * bins + dominant] { dominant = k }
            }
            let b = bandBins.count
            output[out + b] = Double(dominant) * rateHz / Double(n)
            output[out + b + 1] = bins > 2 ? entropy / log(Double(bins - 1)) : 0
            let (peak, lag) = stepPeak(autocorrelation[(row * lagColumns)..<(row * lagColumns + lagColumns)])
            output[out + b + 2] = peak
            output[out + b + 3] = lag
        }
    }

    /// The highest interior local maximum of r(lag)/r(0), and its lag in seconds; (0, 0) when
    /// the autocorrelation only falls over the searched lags (no periodicity).
    private func stepPeak(_ r: ArraySlice<Double>) -> (Double, Double) {
        let values = Array(r)
        guard values[0] > 0, values.count >= 4 else { return (0, 0) }
        var best = 0.0, bestLag = 0.0
        for j in 2..<(values.count - 1) where values[j] >= values[j - 1] && values[j] >= values[j + 1] {
            let normalised = values[j] / values[0]
            if normalised > best { best = normalised; bestLag = Double(lags[j - 1]) / rateHz }
        }
        return (best, bestLag)
    }
}
