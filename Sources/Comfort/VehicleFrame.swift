import CBLAS
import Foundation

/// Accelerations of a phone turned into the vehicle's frame: vertical, longitudinal, lateral.
///
/// Method: gravity ĝ is the mean of the accelerometer over the ride (the vehicle does not
/// tilt for long); vertical acceleration is the projection onto ĝ minus g, the horizontal part
/// is what is left. The direction of travel is the principal axis of the horizontal
/// acceleration after a 0.5 Hz low-pass (traction and braking are slow and along the track;
/// sway and vibration are faster): the eigenvector of the largest eigenvalue of its 3×3
/// covariance, from LAPACK's `dsyev`. Lateral is ĝ × longitudinal.
///
/// Sign ambiguity: an eigenvector's sign is arbitrary, so "forward" may be backward and
/// "left" right. Every metric here (rms, running rms, VDV, percentiles, jerk counts of either
/// sign) is even in the sign, so it does not matter; signed quantities (which way a jerk went)
/// are not reported. The frame also assumes the phone does not move in the pocket during the
/// ride; a phone that is turned over mid-ride mixes axes.
public struct VehicleFrame: Sendable {
    public var vertical: [Double]
    public var longitudinal: [Double]
    public var lateral: [Double]
    /// Unit vectors in the phone's frame.
    public var up: (Double, Double, Double)
    public var forward: (Double, Double, Double)

    public static let travelLowPassHz = 0.5

    /// `x`, `y`, `z`: accelerometer axes (m/s², gravity included), uniformly sampled at `rateHz`.
    public init?(x: [Double], y: [Double], z: [Double], rateHz: Double) {
        let n = x.count
        guard n >= 2, y.count == n, z.count == n else { return nil }
        let mean = (x.reduce(0, +) / Double(n), y.reduce(0, +) / Double(n), z.reduce(0, +) / Double(n))
        let g = (mean.0 * mean.0 + mean.1 * mean.1 + mean.2 * mean.2).squareRoot()
        guard g > 1 else { return nil }  // no gravity: not an accelerometer with gravity
        let up = (mean.0 / g, mean.1 / g, mean.2 / g)
        var vertical = [Double](repeating: 0, count: n)
        var horizontal = [[Double]](repeating: [Double](repeating: 0, count: n), count: 3)
        for i in 0..<n {
            let along = x[i] * up.0 + y[i] * up.1 + z[i] * up.2
            vertical[i] = along - g
            horizontal[0][i] = x[i] - along * up.0
            horizontal[1][i] = y[i] - along * up.1
            horizontal[2][i] = z[i] - along * up.2
        }
        let forward = Self.principalAxis(horizontal.map { Self.lowPass($0, rateHz: rateHz, cutoffHz: Self.travelLowPassHz) })
        let side = (up.1 * forward.2 - up.2 * forward.1, up.2 * forward.0 - up.0 * forward.2, up.0 * forward.1 - up.1 * forward.0)
        self.vertical = vertical
        (self.up, self.forward) = (up, forward)
        longitudinal = (0..<n).map { horizontal[0][$0] * forward.0 + horizontal[1][$0] * forward.1 + horizontal[2][$0] * forward.2 }
        lateral = (0..<n).map { horizontal[0][$0] * side.0 + horizontal[1][$0] * side.1 + horizontal[2][$0] * side.2 }
    }

    /// The eigenvector of the largest eigenvalue of the channels' covariance (LAPACK dsyev).
    static func principalAxis(_ channels: [[Double]]) -> (Double, Double, Double) {
        let n = channels[0].count
        // Centred channels as a 3 × n matrix; covariance = A·Aᵀ / n by one BLAS dsyrk (upper triangle).
        var centred = [Double]()
        centred.reserveCapacity(3 * n)
        for channel in channels {
            let mean = channel.reduce(0, +) / Double(n)
            centred += channel.map { $0 - mean }
        }
        var covariance = [Double](repeating: 0, count: 9)
        cblas_dsyrk(CblasRowMajor, CblasUpper, CblasNoTrans, 3, Int32(n), 1 / Double(n), centred, Int32(n), 0, &covariance, 3)
        var eigenvalues = [Double](repeating: 0, count: 3)
        let info = LAPACKE_dsyev(LAPACK_ROW_MAJOR, CChar(UInt8(ascii: "V")), CChar(UInt8(ascii: "U")), 3, &covariance, 3, &eigenvalues)
        guard info == 0 else { return (1, 0, 0) }
        // Eigenvalues ascend; row-major storage keeps eigenvectors in columns.
        return (covariance[2], covariance[5], covariance[8])
    }

    /// A second-order Butterworth low-pass run forwards and backwards (zero phase). Each pass
    /// starts in the steady state of its first value (unity gain at 0 Hz), so a signal that
    /// does not start or end at zero has no start-up transient.
    static func lowPass(_ signal: [Double], rateHz: Double, cutoffHz: Double) -> [Double] {
        guard let first = signal.first else { return [] }
        let k = tan(Double.pi * cutoffHz / rateHz), q = 1 / 2.squareRoot()
        let norm = 1 / (1 + k / q + k * k)
        let b0 = k * k * norm, b1 = 2 * b0, a1 = 2 * (k * k - 1) * norm, a2 = (1 - k / q + k * k) * norm
        let biquad = Biquad(b0: b0, b1: b1, b2: b0, a1: a1, a2: a2)
        var output = signal.map { $0 - first }
        biquad.filter(&output)
        let last = output.last!
        output = output.reversed().map { $0 - last }
        biquad.filter(&output)
        return output.reversed().map { $0 + last + first }
    }
}
