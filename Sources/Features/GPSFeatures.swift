import Foundation
import MobilityCore

/// GPS features of the fixes around a window: speed mean, 85th percentile and maximum,
/// mean absolute acceleration, heading-change rate and mean accuracy. Speeds are the fixes'
/// reported speeds when they have them, else distance over time from the fix at least
/// `baselineSeconds` earlier: over one second a few metres of position noise look like a run
/// (2 m of noise between 1 Hz fixes reads as up to 4 m/s), over five seconds a fifth of that.
/// Headings use the same chords and count only chords longer than 3 m, so the jitter of a
/// standing receiver does not look like turning. NaN when fewer than two fixes fall in the span.
struct GPSFeatures {
    static let count = FeatureSchema.gpsNames.count
    /// Metres of horizontal error per unit of HDOP (as the cleaner assumes).
    var metresPerHDOP = 5.0
    private let minimumStepMeters = 3.0
    /// Shortest time between the two fixes a speed is measured over, seconds. Default 5 s.
    private let baselineSeconds = 5.0

    /// `fixes` must be in time order with times; `times` their seconds since 1970.
    func compute(fixes: ArraySlice<PositionFix>, into output: inout [Double], at offset: Int) {
        let points = Array(fixes)
        guard points.count >= 2 else {
            for i in 0..<Self.count { output[offset + i] = .nan }
            return
        }
        var speeds: [Double] = [], speedTimes: [Double] = [], headingChange = 0.0, lastBearing: Double?
        var base = 0
        for i in 1..<points.count {
            while base + 1 < i, points[base + 1].time!.seconds(until: points[i].time!) >= baselineSeconds { base += 1 }
            let a = points[base], b = points[i]
            let dt = a.time!.seconds(until: b.time!)
            guard dt > 0 else { continue }
            let distance = Geodesy.distanceMeters(a, b)
            speeds.append(b.speedMetersPerSecond ?? distance / dt)
            speedTimes.append(b.time!.secondsSince1970)
            if distance >= minimumStepMeters {
                let bearing = Self.bearingDegrees(a, b)
                if let last = lastBearing {
                    let turn = abs(bearing - last).truncatingRemainder(dividingBy: 360)
                    headingChange += min(turn, 360 - turn)
                }
                lastBearing = bearing
            }
        }
        let span = points.first!.time!.seconds(until: points.last!.time!)
        guard !speeds.isEmpty, span > 0 else {
            for i in 0..<Self.count { output[offset + i] = .nan }
            return
        }
        var accelerations = 0.0
        for i in 1..<speeds.count {
            let dt = speedTimes[i] - speedTimes[i - 1]
            if dt > 0 { accelerations += abs(speeds[i] - speeds[i - 1]) / dt }
        }
        let sorted = speeds.sorted()
        let accuracies = points.compactMap { $0.accuracyMeters ?? $0.hdop.map { $0 * metresPerHDOP } }
        output[offset] = speeds.reduce(0, +) / Double(speeds.count)
        output[offset + 1] = Quantile.sorted(sorted, 0.85)
        output[offset + 2] = sorted.last!
        output[offset + 3] = speeds.count > 1 ? accelerations / Double(speeds.count - 1) : 0
        output[offset + 4] = headingChange / span
        output[offset + 5] = accuracies.isEmpty ? .nan : accuracies.reduce(0, +) / Double(accuracies.count)
    }

    /// Initial bearing from `a` to `b`, degrees clockwise from north (equirectangular; the
    /// steps are metres long).
    static func bearingDegrees(_ a: PositionFix, _ b: PositionFix) -> Double {
        let latitude = (a.latitudeDegrees + b.latitudeDegrees) / 2 * .pi / 180
        let east = (b.longitudeDegrees - a.longitudeDegrees) * cos(latitude)
        let north = b.latitudeDegrees - a.latitudeDegrees
        return atan2(east, north) * 180 / .pi
    }
}
