import Foundation

/// A strong push felt by a passenger: a braking, a pull-away or a curve (acceleration), or a
/// sudden change of acceleration (jerk), along or across the vehicle.
public struct RideEvent: Sendable, Hashable {
    public enum Kind: String, Sendable, Codable { case acceleration, jerk }
    public enum Axis: String, Sendable, Codable { case longitudinal, lateral }

    public var kind: Kind
    public var axis: Axis
    /// braking or traction (longitudinal acceleration), forward or backward (longitudinal
    /// jerk), left or right (lateral); the axis's name when its sign is unknown.
    public var direction: String
    /// First and last time above the threshold, Unix seconds.
    public var startSeconds: Double
    public var endSeconds: Double
    /// Largest |acceleration| within the event (the 1 Hz low-passed acceleration), m/s².
    public var peakAccelerationMetersPerSecond2: Double
    /// Largest |jerk| within the event (of the 1 Hz low-passed acceleration), m/s³.
    public var peakJerkMetersPerSecond3: Double
}

/// Events as merged excursions of a signal.
///
/// An excursion is a run of samples of one sign whose magnitude is above `base`; excursions of
/// the same sign less than `minimumGapSeconds` apart are one event. An event counts when its
/// peak magnitude reaches the threshold, and runs from the first to the last sample above the
/// threshold. The candidates do not depend on the threshold, so raising the threshold can only
/// drop events, never split one into two: counts never rise with the threshold.
struct ExcursionFinder {
    var base: Double
    var minimumGapSeconds: Double

    /// (first, last, peak index) of each event of `signal` at `threshold`.
    func events(_ signal: [Double], rateHz: Double, threshold: Double) -> [(first: Int, last: Int, peak: Int)] {
        var candidates: [(first: Int, last: Int, positive: Bool)] = []
        let gap = Int((minimumGapSeconds * rateHz).rounded())
        for index in signal.indices where abs(signal[index]) > base {
            let positive = signal[index] > 0
            if let last = candidates.last, last.positive == positive, index - last.last <= gap {
                candidates[candidates.count - 1].last = index
            } else {
                candidates.append((index, index, positive))
            }
        }
        return candidates.compactMap { candidate in
            let range = candidate.first...candidate.last
            let sign = candidate.positive ? 1.0 : -1.0
            guard let peak = range.max(by: { sign * signal[$0] < sign * signal[$1] }), abs(signal[peak]) >= threshold,
                let first = range.first(where: { sign * signal[$0] >= threshold }),
                let last = range.last(where: { sign * signal[$0] >= threshold })
            else { return nil }
            return (first, last, peak)
        }
    }
}

extension RideEvent {
    public struct Parameters: Hashable, Sendable, Codable {
        /// A braking, pull-away or curve counts from this acceleration, m/s² (1 Hz low-passed).
        /// Metro and tram service braking and traction run at 0.8–1.2 m/s²; 1.0 m/s² is where a
        /// standing passenger needs a hold.
        public var accelerationThresholdMetersPerSecond2 = 1.0
        /// A jerk counts from this rate of change, m/s³, of the 1 Hz low-passed acceleration: the
        /// push a body feels, not the floor's vibration (at 2 Hz a metro's sway alone crosses
        /// 1 m/s³ hundreds of times a ride). Metro and tram drives limit their jerk to about
        /// 1 m/s³ in service; above it a standing passenger is pushed.
        public var jerkThresholdMetersPerSecond3 = 1.0
        public init() {}
    }

    /// Excursions above 0.3 m/s² (or 0.3 m/s³) are candidates; the same sign within 2 s (1 s for
    /// jerks) merges. Fixed, so that counts are monotone in the thresholds (see `ExcursionFinder`).
    static let accelerationFinder = ExcursionFinder(base: 0.3, minimumGapSeconds: 2)
    static let jerkFinder = ExcursionFinder(base: 0.3, minimumGapSeconds: 1)

    /// The events of one piece of a ride in the vehicle frame.
    static func find(
        in piece: VehicleFrame.Piece, rateHz: Double, signsKnown: (longitudinal: Bool, lateral: Bool),
        parameters: Parameters
    ) -> [RideEvent] {
        var events: [RideEvent] = []
        for (axis, signal, known) in [
            (Axis.longitudinal, piece.longitudinal, signsKnown.longitudinal), (.lateral, piece.lateral, signsKnown.lateral)
        ] {
            guard signal.count > 1 else { continue }
            let acceleration = ZeroPhaseFilter.lowPass(signal, rateHz: rateHz, cutoffHz: 1)
            let jerk = [0] + (1..<acceleration.count).map { (acceleration[$0] - acceleration[$0 - 1]) * rateHz }
            func event(_ kind: Kind, _ span: (first: Int, last: Int, peak: Int), positive: Bool) -> RideEvent {
                let range = span.first...span.last
                let names: (String, String) =
                    switch (kind, axis) {
                    case (.acceleration, .longitudinal): ("traction", "braking")
                    case (.jerk, .longitudinal): ("forward", "backward")
                    case (_, .lateral): ("left", "right")
                    }
                return RideEvent(
                    kind: kind, axis: axis, direction: known ? (positive ? names.0 : names.1) : axis.rawValue,
                    startSeconds: piece.startSeconds + Double(span.first) / rateHz,
                    endSeconds: piece.startSeconds + Double(span.last) / rateHz,
                    peakAccelerationMetersPerSecond2: range.map { abs(acceleration[$0]) }.max() ?? 0,
                    peakJerkMetersPerSecond3: range.map { abs(jerk[$0]) }.max() ?? 0)
            }
            for span in accelerationFinder.events(acceleration, rateHz: rateHz, threshold: parameters.accelerationThresholdMetersPerSecond2)
            {
                events.append(event(.acceleration, span, positive: acceleration[span.peak] > 0))
            }
            for span in jerkFinder.events(jerk, rateHz: rateHz, threshold: parameters.jerkThresholdMetersPerSecond3) {
                events.append(event(.jerk, span, positive: jerk[span.peak] > 0))
            }
        }
        return events.sorted { $0.startSeconds < $1.startSeconds }
    }
}
