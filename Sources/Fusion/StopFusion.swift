import Classify
import Comfort
import Features
import Foundation
import MobilityCore

/// Station stops that survive smoothing. A classifier of 5 s windows sees a train standing at a
/// platform for 20 s as two or three still windows between train windows, and smoothing
/// (segments under 30 s merge into a neighbour) erases them. Ride comfort's `StopDetector`
/// finds such stops from the vehicle's floor vibration (3–20 Hz) against the ride's own
/// levels; here it runs over each stretch the classifier calls riding (car, bus, train, and
/// the still windows between them), and the windows whose middle lies in a stop it finds of
/// `minimumStopSeconds` or more become still after smoothing.
///
/// It needs acceleration measured at 20 Hz or more over at least a minute of riding (as ride
/// comfort does); slower phones (TMD's 2–12 Hz event logs) keep the classifier's modes.
public struct StopFusion: Sendable {
    public static let vehicleModes: Set<Mode> = [.car, .bus, .train]
    /// Shortest stop made still, seconds. Default 15: `ModeSmoother`'s minimum stop (the run's
    /// `--min-stop-s`).
    public var minimumStopSeconds = ModeSmoother().minimumStopSeconds
    /// Windows further apart than this end a riding stretch, seconds. Default 10.
    public var maxGapSeconds = 10.0

    public init() {}

    /// The stops (Unix seconds) found in `recording`'s acceleration within the stretches that
    /// `modes` (one per window of `windows`, the recording's, in time order) call riding.
    public func stops(_ recording: Recording, windows: [WindowInfo], modes: [Mode]) -> [ClosedRange<Double>] {
        let stretches = ridingStretches(windows, modes: modes)
        guard !stretches.isEmpty else { return [] }
        // The recording's acceleration once (linear plus gravity is a pass over every sample),
        // then each stretch as a slice of it.
        let all = RideAcceleration.of(recording, from: -.infinity, to: .infinity)
        var stops: [ClosedRange<Double>] = []
        for stretch in stretches {
            let lower = all.samples.firstIndex(notBelow: stretch.lowerBound) { $0.time.secondsSince1970 }
            let upper = all.samples.firstIndex(notBelow: stretch.upperBound.nextUp) { $0.time.secondsSince1970 }
            let acceleration = RideAcceleration(samples: Array(all.samples[lower..<upper]), gravityIncluded: all.gravityIncluded)
            let (_, pieces, rate) = RideAcceleration.pieces(acceleration)
            guard !pieces.isEmpty else { continue }
            stops += StopDetector().stops(in: pieces, rateHz: rate).filter { $0.durationSeconds >= minimumStopSeconds }
                .map { $0.startSeconds...$0.endSeconds }
        }
        return stops
    }

    /// Maximal runs of windows that are riding or still, holding at least one riding window, as
    /// time spans (Unix seconds).
    func ridingStretches(_ windows: [WindowInfo], modes: [Mode]) -> [ClosedRange<Double>] {
        var stretches: [ClosedRange<Double>] = [], start: Int?, riding = false
        func close(_ end: Int) {
            if let first = start, riding { stretches.append(windows[first].start.secondsSince1970...windows[end].end.secondsSince1970) }
            start = nil
            riding = false
        }
        for index in windows.indices {
            let fits = Self.vehicleModes.contains(modes[index]) || modes[index] == .still
            if let first = start, !fits || windows[index - 1].end.seconds(until: windows[index].start) > maxGapSeconds {
                close(max(first, index - 1))
            }
            guard fits else { continue }
            if start == nil { start = index }
            riding = riding || Self.vehicleModes.contains(modes[index])
        }
        if start != nil { close(windows.count - 1) }
        return stretches
    }

    /// Makes still the windows whose middle lies in one of their trace's `stopsByTrace`; returns
    /// how many changed.
    @discardableResult
    public static func apply(
        _ stopsByTrace: [String: [ClosedRange<Double>]], windows: [WindowInfo], prediction: inout ModePredictor.Prediction
    ) -> Int {
        var changed = 0
        for index in windows.indices {
            guard let stops = stopsByTrace[windows[index].trace], prediction.modes[index] != .still else { continue }
            let middle = (windows[index].start.secondsSince1970 + windows[index].end.secondsSince1970) / 2
            guard stops.contains(where: { $0.contains(middle) }) else { continue }
            prediction.modes[index] = .still
            changed += 1
        }
        return changed
    }
}
