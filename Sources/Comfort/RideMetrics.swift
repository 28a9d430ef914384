import Foundation

/// The comfort of one ride from its vehicle-frame accelerations, over the time the data
/// covers: each gap-free piece is weighted on its own (the filters restart after a gap) and
/// nothing is filled in. The first `WeightingFilter.settlingSeconds` (5 s) of each piece's
/// weighted signal are the filters' start-up and are left out of every weighted metric
/// (`weightedSeconds` is what remains); events use the whole piece.
///
/// ISO 2631-1:1997 (comfort, seated, multiplying factors 1 on every axis, clause 8.2.3):
/// weighted rms per axis (Wd horizontal, Wk vertical; clause 6.1) and the vibration total value
/// a_v = √(a_wx² + a_wy² + a_wz²) (clause 8.2.3, formula 9); the running rms over τ = 1 s
/// (clause 6.3.1, linear integration) and its maximum, MTVV, from full 1 s windows only; the
/// vibration dose value VDV = (∫ a_w⁴ dt)^¼ (clause 6.3.2); the crest factor (peak / rms,
/// clause 6.2.1).
///
/// EN 12299:2009: the continuous comfort C_Cx, C_Cy, C_Cz, the rms over consecutive 5 s of the
/// Wd (x, y) and Wb (z) accelerations (clause 5.3, the comfort index over 5 s), and the mean
/// comfort N_MV = 6·√(aXP95² + aYP95² + aZP95²) per 5 min block (clause 5.2, formula 1: 95th
/// percentiles of the block's 60 5 s rms values). A ride shorter than 5 min gets one partial
/// N_MV over the 5 s values it has, flagged `nmvPartial` with the minutes it covers.
///
/// Events (`RideEvent`): brakings, pull-aways, curves and jerks as merged excursions; the jerks
/// per hour count jerk events per covered hour.
public struct RideMetrics: Sendable, Hashable {
    public struct Axis: Sendable, Hashable {
        public var rms: Double
        public var mtvv: Double
        public var vdv: Double
        public var crestFactor: Double
    }

    /// Covered seconds (the pieces' lengths; gaps not counted).
    public var seconds: Double
    /// Seconds the weighted metrics are computed over: each piece less its settling time.
    public var weightedSeconds: Double
    public var longitudinal: Axis
    public var lateral: Axis
    public var vertical: Axis
    /// Vibration total value a_v, m/s².
    public var totalValue: Double
    /// ISO 2631-1's comfort reaction to a_v; nil ("not measured") when a_v is not a number.
    public var comfortBand: ComfortBand?
    /// N_MV of each complete 5 min block; of the whole ride when it is shorter (see `nmvPartial`).
    public var nmvBlocks: [Double]
    /// True when the ride had less than one 5 min block and N_MV comes from what it had.
    public var nmvPartial: Bool
    /// Minutes of 5 s values behind N_MV.
    public var nmvMinutes: Double
    /// Mean of the blocks' N_MV (nil when the ride has no 5 s value).
    public var nmv: Double? { nmvBlocks.isEmpty ? nil : nmvBlocks.reduce(0, +) / Double(nmvBlocks.count) }
    public var nmvClass: NMVClass? { nmv.flatMap { $0.isFinite ? NMVClass($0) : nil } }
    /// EN 12299 continuous comfort per 5 s of covered time, per axis, m/s².
    public var ccX: [Double], ccY: [Double], ccZ: [Double]
    /// The largest of the three axes' continuous comfort per 5 s, m/s².
    public var continuousComfort: [Double] { ccZ.indices.map { max(ccX[$0], ccY[$0], ccZ[$0]) } }
    public var events: [RideEvent]
    public var longitudinalJerksPerHour: Double
    public var lateralJerksPerHour: Double

    public typealias Parameters = RideEvent.Parameters

    public init(frame: VehicleFrame, rateHz: Double, parameters: Parameters = Parameters()) {
        var x: [[Double]] = [], y: [[Double]] = [], zk: [[Double]] = [], zb: [[Double]] = []
        let settling = Int((WeightingFilter.settlingSeconds * rateHz).rounded())
        func weighted(_ weighting: FrequencyWeighting, _ signal: [Double]) -> [Double] {
            Array(WeightingFilter(weighting, rateHz: rateHz).apply(signal).dropFirst(settling))
        }
        for piece in frame.pieces where piece.vertical.count > settling {
            x.append(weighted(.wd, piece.longitudinal))
            y.append(weighted(.wd, piece.lateral))
            zk.append(weighted(.wk, piece.vertical))
            zb.append(weighted(.wb, piece.vertical))
        }
        seconds = Double(frame.pieces.reduce(0) { $0 + $1.vertical.count }) / rateHz
        weightedSeconds = Double(zk.reduce(0) { $0 + $1.count }) / rateHz
        longitudinal = Self.axis(x, rateHz: rateHz)
        lateral = Self.axis(y, rateHz: rateHz)
        vertical = Self.axis(zk, rateHz: rateHz)
        totalValue = (longitudinal.rms * longitudinal.rms + lateral.rms * lateral.rms + vertical.rms * vertical.rms).squareRoot()
        comfortBand = totalValue.isFinite ? ComfortBand(totalValue) : nil
        let step = Int((5 * rateHz).rounded())
        let (cx, cy, cz) = (
            x.flatMap { Self.blockRMS($0, length: step) }, y.flatMap { Self.blockRMS($0, length: step) },
            zb.flatMap { Self.blockRMS($0, length: step) }
        )
        (ccX, ccY, ccZ) = (cx, cy, cz)
        let blocks = stride(from: 0, to: cz.count - 59, by: 60).map { start in
            Self.nmv(x: Array(cx[start..<start + 60]), y: Array(cy[start..<start + 60]), z: Array(cz[start..<start + 60]))
        }
        if blocks.isEmpty, !cz.isEmpty {
            (nmvBlocks, nmvPartial, nmvMinutes) = ([Self.nmv(x: cx, y: cy, z: cz)], true, Double(cz.count) / 12)
        } else {
            (nmvBlocks, nmvPartial, nmvMinutes) = (blocks, false, Double(blocks.count) * 5)
        }
        let signs = (frame.forwardSignKnown, frame.lateralSignKnown)
        events = frame.pieces.flatMap { RideEvent.find(in: $0, rateHz: rateHz, signsKnown: signs, parameters: parameters) }
        let hours = max(seconds / 3600, 1e-9)
        longitudinalJerksPerHour = Double(events.filter { $0.kind == .jerk && $0.axis == .longitudinal }.count) / hours
        lateralJerksPerHour = Double(events.filter { $0.kind == .jerk && $0.axis == .lateral }.count) / hours
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

    /// rms, MTVV, VDV and crest factor of an axis's weighted pieces.
    static func axis(_ pieces: [[Double]], rateHz: Double) -> Axis {
        let n = Double(max(pieces.reduce(0) { $0 + $1.count }, 1))
        let rms = (pieces.reduce(0) { $0 + $1.reduce(0) { $0 + $1 * $1 } } / n).squareRoot()
        let vdv = pow(pieces.reduce(0) { $0 + $1.reduce(0) { $0 + pow($1, 4) } } / rateHz, 0.25)
        let peak = pieces.map { $0.map(abs).max() ?? 0 }.max() ?? 0
        let mtvv = pieces.map { runningRMSMaximum($0, rateHz: rateHz) }.max() ?? 0
        return Axis(rms: rms, mtvv: mtvv, vdv: vdv, crestFactor: rms > 0 ? peak / rms : 0)
    }

    /// The largest running rms over τ = 1 s (linear integration, ISO 2631-1 6.3.1), from full
    /// windows; a piece shorter than 1 s gives its own rms.
    static func runningRMSMaximum(_ weighted: [Double], rateHz: Double) -> Double {
        let window = max(1, Int(rateHz.rounded()))
        guard weighted.count > window else {
            return weighted.isEmpty ? 0 : (weighted.reduce(0) { $0 + $1 * $1 } / Double(weighted.count)).squareRoot()
        }
        var sum = weighted[0..<window].reduce(0) { $0 + $1 * $1 }, best = sum
        for index in window..<weighted.count {
            sum += weighted[index] * weighted[index] - weighted[index - window] * weighted[index - window]
            best = max(best, sum)
        }
        return (max(best, 0) / Double(window)).squareRoot()
    }

    /// rms of consecutive blocks of `length` samples (a last partial block is left out).
    static func blockRMS(_ signal: [Double], length: Int) -> [Double] {
        stride(from: 0, to: signal.count - length + 1, by: length).map { start in
            (signal[start..<start + length].reduce(0) { $0 + $1 * $1 } / Double(length)).squareRoot()
        }
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
