import Foundation

/// The comfort of one ride from its vehicle-frame accelerations.
///
/// ISO 2631-1 (comfort, seated, multiplying factors 1 on every axis, clause 8.2.3): weighted
/// rms per axis (Wd horizontal, Wk vertical) and the vibration total value
/// a_v = √(a_wx² + a_wy² + a_wz²); the running rms over 1 s and its maximum (MTVV); the vibration
/// dose value VDV = (∫ a_w⁴ dt)^¼ per axis; the crest factor (peak / rms). EN 12299: 5 s rms of
/// Wd (x, y) and Wb (z) accelerations (the continuous comfort), and the mean comfort
/// N_MV = 6·√(aXP95² + aYP95² + aZP95²) per 5 min block, from the 95th percentiles of the 5 s
/// rms values in the block. Jerks: strong changes of horizontal acceleration (0.5 Hz–2 Hz
/// band, the rate a passenger feels as a push) counted per hour.
public struct RideMetrics: Sendable, Hashable {
    public struct Axis: Sendable, Hashable {
        public var rms: Double
        public var mtvv: Double
        public var vdv: Double
        public var crestFactor: Double
    }

    public var seconds: Double
    public var longitudinal: Axis
    public var lateral: Axis
    public var vertical: Axis
    /// Vibration total value a_v, m/s².
    public var totalValue: Double
    public var comfortBand: ComfortBand
    /// N_MV of each complete 5 min block.
    public var nmvBlocks: [Double]
    /// Mean of the blocks' N_MV (nil for rides under 5 min).
    public var nmv: Double? { nmvBlocks.isEmpty ? nil : nmvBlocks.reduce(0, +) / Double(nmvBlocks.count) }
    public var nmvClass: NMVClass? { nmv.map(NMVClass.init) }
    /// The continuous comfort per 5 s step (EN 12299 C_C, the larger of the three axes' 5 s
    /// weighted rms), m/s².
    public var continuousComfort: [Double]
    public var longitudinalJerksPerHour: Double
    public var lateralJerksPerHour: Double

    public struct Parameters: Hashable, Sendable, Codable {
        /// A horizontal jerk above this is strong, m/s³ (a parameter; 0.8 m/s³ is a firm push
        /// a standing passenger notices).
        public var jerkThresholdMetersPerSecond3 = 0.8
        public init() {}
    }

    public init(frame: VehicleFrame, rateHz: Double, parameters: Parameters = Parameters()) {
        let x = WeightingFilter(.wd, rateHz: rateHz).apply(frame.longitudinal)
        let y = WeightingFilter(.wd, rateHz: rateHz).apply(frame.lateral)
        let zk = WeightingFilter(.wk, rateHz: rateHz).apply(frame.vertical)
        let zb = WeightingFilter(.wb, rateHz: rateHz).apply(frame.vertical)
        seconds = Double(frame.vertical.count) / rateHz
        longitudinal = Self.axis(x, rateHz: rateHz)
        lateral = Self.axis(y, rateHz: rateHz)
        vertical = Self.axis(zk, rateHz: rateHz)
        totalValue = (longitudinal.rms * longitudinal.rms + lateral.rms * lateral.rms + vertical.rms * vertical.rms).squareRoot()
        comfortBand = ComfortBand(totalValue)
        let step = Int(5 * rateHz)
        let (rx, ry, rz) = (Self.blockRMS(x, length: step), Self.blockRMS(y, length: step), Self.blockRMS(zb, length: step))
        continuousComfort = (0..<rz.count).map { max(rx[$0], ry[$0], rz[$0]) }
        nmvBlocks = stride(from: 0, to: rz.count - 59, by: 60).map { start in
            Self.nmv(x: Array(rx[start..<start + 60]), y: Array(ry[start..<start + 60]), z: Array(rz[start..<start + 60]))
        }
        let hours = seconds / 3600
        longitudinalJerksPerHour = Double(Self.jerks(frame.longitudinal, rateHz: rateHz, threshold: parameters.jerkThresholdMetersPerSecond3)) / max(hours, 1e-9)
        lateralJerksPerHour = Double(Self.jerks(frame.lateral, rateHz: rateHz, threshold: parameters.jerkThresholdMetersPerSecond3)) / max(hours, 1e-9)
    }

    /// EN 12299 mean comfort from the 5 s rms values of one 5 min block (m/s²).
    public static func nmv(x: [Double], y: [Double], z: [Double]) -> Double {
        let (px, py, pz) = (percentile95(x), percentile95(y), percentile95(z))
        return 6 * (px * px + py * py + pz * pz).squareRoot()
    }

    /// The 95th percentile, interpolating linearly between ranks (Hyndman & Fan type 7, as
    /// numpy's default).
    public static func percentile95(_ values: [Double]) -> Double {
        ComfortSummary.quantile(values, 0.95) ?? .nan
    }

    static func axis(_ weighted: [Double], rateHz: Double) -> Axis {
        let n = Double(max(weighted.count, 1))
        let rms = (weighted.reduce(0) { $0 + $1 * $1 } / n).squareRoot()
        let vdv = pow(weighted.reduce(0) { $0 + pow($1, 4) } / rateHz, 0.25)
        let peak = weighted.map(abs).max() ?? 0
        // Running rms, linear integration over τ = 1 s (ISO 2631-1 6.3.1), evaluated at every sample.
        let window = max(1, Int(rateHz)), squares = weighted.map { $0 * $0 }
        var sum = 0.0, mtvv = 0.0
        for index in squares.indices {
            sum += squares[index]
            if index >= window { sum -= squares[index - window] }
            mtvv = max(mtvv, (max(sum, 0) / Double(min(index + 1, window))).squareRoot())
        }
        return Axis(rms: rms, mtvv: mtvv, vdv: vdv, crestFactor: rms > 0 ? peak / rms : 0)
    }

    /// rms of consecutive blocks of `length` samples (a last partial block is left out).
    static func blockRMS(_ signal: [Double], length: Int) -> [Double] {
        stride(from: 0, to: signal.count - length + 1, by: length).map { start in
            (signal[start..<start + length].reduce(0) { $0 + $1 * $1 } / Double(length)).squareRoot()
        }
    }

    /// Events where the jerk of the 2 Hz low-passed acceleration exceeds `threshold`, at least
    /// 1 s apart.
    static func jerks(_ acceleration: [Double], rateHz: Double, threshold: Double) -> Int {
        let smooth = VehicleFrame.lowPass(acceleration, rateHz: rateHz, cutoffHz: 2)
        var count = 0, last = -Int.max / 2
        for index in 1..<max(1, smooth.count) where abs(smooth[index] - smooth[index - 1]) * rateHz > threshold {
            if index - last >= Int(rateHz) { count += 1 }
            last = index
        }
        return count
    }
}

/// ISO 2631-1 Annex C.2.3's comfort reactions to a_v. The standard's bands overlap
/// (0.5–1 and 0.8–1.6 …); a value gets the highest band whose lower limit it reaches, so the
/// labels run: < 0.315, 0.315–0.5, 0.5–0.8, 0.8–1.25, 1.25–2, ≥ 2 m/s².
public enum ComfortBand: String, Sendable, Hashable, CaseIterable, Codable {
    case notUncomfortable = "not uncomfortable"
    case aLittleUncomfortable = "a little uncomfortable"
    case fairlyUncomfortable = "fairly uncomfortable"
    case uncomfortable
    case veryUncomfortable = "very uncomfortable"
    case extremelyUncomfortable = "extremely uncomfortable"

    static let lowerLimits = [0, 0.315, 0.5, 0.8, 1.25, 2.0]

    public init(_ totalValue: Double) {
        let index = Self.lowerLimits.lastIndex { totalValue >= $0 } ?? 0
        self = Self.allCases[index]
    }
}

/// EN 12299's scale for N_MV: < 1 very comfortable, 1–2 comfortable, 2–4 medium, 4–5
/// uncomfortable, ≥ 5 very uncomfortable.
public enum NMVClass: String, Sendable, Hashable, CaseIterable, Codable {
    case veryComfortable = "very comfortable"
    case comfortable
    case medium
    case uncomfortable
    case veryUncomfortable = "very uncomfortable"

    public init(_ nmv: Double) {
        switch nmv {
        case ..<1: self = .veryComfortable
        case ..<2: self = .comfortable
        case ..<4: self = .medium
        case ..<5: self = .uncomfortable
        default: self = .veryUncomfortable
        }
    }
}
