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

    /// Each fix's chord from the latest fix at least `baselineSeconds` before it, with its
    /// length and bearing, for an array of fixes in time order. A fix lies in several windows
    /// (their contexts overlap); a window whose fixes include the chord's start uses it as it
    /// is, so each chord's trigonometry is done once rather than once per window, and the
    /// values are the same (the same function of the same two fixes).
    struct Chords {
        /// The chord's first fix, or -1 when no fix lies `baselineSeconds` before.
        var from: [Int]
        var meters: [Double]
        /// NaN for chords shorter than `minimumStepMeters` (they have no heading).
        var bearings: [Double]
    }

    func chords(_ points: [PositionFix]) -> Chords {
        var chords = Chords(
            from: Array(repeating: -1, count: points.count), meters: Array(repeating: .nan, count: points.count),
            bearings: Array(repeating: .nan, count: points.count))
        var base = 0
        for i in points.indices.dropFirst() {
            while base + 1 < i, points[base + 1].time!.seconds(until: points[i].time!) >= baselineSeconds { base += 1 }
            guard points[base].time!.seconds(until: points[i].time!) >= baselineSeconds else { continue }
            let distance = Geodesy.distanceMeters(points[base], points[i])
            chords.from[i] = base
            chords.meters[i] = distance
            if distance >= minimumStepMeters { chords.bearings[i] = Self.bearingDegrees(points[base], points[i]) }
        }
        return chords
    }

    /// The features of `fixes`, a window's run of `chords`' fixes (in time order, with times).
    /// Each fix's speed and heading come from the latest fix at least `baselineSeconds` before
    /// it in the window, else from the window's first fix. Without `chords` every chord is
    /// measured here; with them, those that are the shared chord are read from it (the same
    /// values).
    func compute(fixes: ArraySlice<PositionFix>, chords: Chords?, into output: inout [Double], at offset: Int) {
        guard fixes.count >= 2 else {
            for i in 0..<Self.count { output[offset + i] = .nan }
            return
        }
        let first = fixes.startIndex
        var speeds: [Double] = [], speedTimes: [Double] = [], headingChange = 0.0, lastBearing: Double?
        speeds.reserveCapacity(fixes.count)
        speedTimes.reserveCapacity(fixes.count)
        var base = first
        for i in (first + 1)..<fixes.endIndex {
            while base + 1 < i, fixes[base + 1].time!.seconds(until: fixes[i].time!) >= baselineSeconds { base += 1 }
            let a = fixes[base], b = fixes[i]
            let dt = a.time!.seconds(until: b.time!)
            guard dt > 0 else { continue }
            // The shared chord when it is this one (not when the window starts after its first fix).
            let cached = chords?.from[i] == base
            let distance = cached ? chords!.meters[i] : Geodesy.distanceMeters(a, b)
            speeds.append(b.speedMetersPerSecond ?? distance / dt)
            speedTimes.append(b.time!.secondsSince1970)
            if distance >= minimumStepMeters {
                let bearing = cached ? chords!.bearings[i] : Self.bearingDegrees(a, b)
                if let last = lastBearing {
                    let turn = abs(bearing - last).truncatingRemainder(dividingBy: 360)
                    headingChange += min(turn, 360 - turn)
                }
                lastBearing = bearing
            }
        }
        let span = fixes.first!.time!.seconds(until: fixes.last!.time!)
        guard !speeds.isEmpty, span > 0 else {
            for i in 0..<Self.count { output[offset + i] = .nan }
            return
        }
        var accelerations = 0.0
        for i in 1..<speeds.count {
            let dt = speedTimes[i] - speedTimes[i - 1]
            if dt > 0 { accelerations += abs(speeds[i] - speeds[i - 1]) / dt }
        }
        var accuracySum = 0.0, accuracyCount = 0
        for fix in fixes {
            guard let accuracy = fix.accuracyMeters ?? fix.hdop.map({ $0 * metresPerHDOP }) else { continue }
            accuracySum += accuracy
            accuracyCount += 1
        }
        output[offset] = speeds.reduce(0, +) / Double(speeds.count)
        speeds.sort()
        output[offset + 1] = Quantile.sorted(speeds, 0.85)
        output[offset + 2] = speeds.last!
        output[offset + 3] = speeds.count > 1 ? accelerations / Double(speeds.count - 1) : 0
        output[offset + 4] = headingChange / span
        output[offset + 5] = accuracyCount == 0 ? .nan : accuracySum / Double(accuracyCount)
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
