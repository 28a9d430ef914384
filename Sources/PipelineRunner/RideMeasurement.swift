import Comfort
import Features
import Foundation
import Ingest
import MobilityCore
import Store

/// Turns a device's IMU recordings into the comfort metrics of one ride window: the
/// accelerometer (with gravity; or linear acceleration plus the gravity stream) within the
/// window, resampled to a uniform 50 Hz (100 Hz when the phone records at 90 Hz or more),
/// gaps up to 1 s bridged, then `VehicleFrame` and `RideMetrics`.
struct RideMeasurement {
    var loader: RecordingLoader
    var parameters = RideMetrics.Parameters()

    /// Rides need at least this much usable IMU data, seconds.
    static let minimumSeconds = 60.0
    /// Lowest native rate whose weighting up to 20 Hz means anything (Nyquist above 10 Hz), Hz.
    static let minimumRateHz = 20.0

    /// The ride's metrics from the IMU `files` (each read with the column mapping it was
    /// ingested with). A file that cannot be read now (gone, changed into something unreadable
    /// since ingest) is left out and returned in `unreadable`, so one bad file never stops the stage.
    func measure(files: [PipelineStore.IMUFile], window: RideWindow) throws
        -> (status: Ride.Status, metrics: RideMetrics?, rateHz: Double?, unreadable: [InputError], gravityFreeOnly: Bool) {
        var samples: [IMUSample] = []
        var unreadable: [InputError] = []
        var gravityFree = false
        for file in files {
            do {
                var loader = self.loader
                loader.columns = try file.columnMapping.map(ColumnMappingSpec.init(text:))
                unreadable += try loader.load([file.path], progress: Progress(quiet: true)) { recording in
                    if recording.accelerationBasis != nil && !recording.hasGravityReference { gravityFree = true }
                    samples += Self.accelerationWithGravity(recording).filter {
                        $0.time.secondsSince1970 >= window.startSeconds && $0.time.secondsSince1970 <= window.endSeconds
                    }
                }.quarantined
            } catch let error as InputError {
                unreadable.append(error)
            } catch {
                unreadable.append(InputError(.unreadable, "\(error)", path: file.path))
            }
        }
        // IMU files that hold gravity-free acceleration alone: data there, but unusable without the vertical.
        let onlyGravityFree = gravityFree && samples.isEmpty
        let (measured, metrics, rate) = metrics(samples)
        let status = onlyGravityFree ? .unusableIMU : measured
        return (status, metrics, rate, unreadable, onlyGravityFree)
    }

    /// Why a ride was not measured, in words a user can act on; nil when it was.
    static func reason(_ status: Ride.Status, rateHz: Double?, gravityFree: Bool) -> String? {
        if gravityFree {
            return "the IMU files hold gravity-free acceleration only (no accelerometer with gravity, no gravity stream), "
                + "so the vertical is unknown; record TotalAcceleration.csv or Gravity.csv too"
        }
        switch status {
        case .measured: return nil
        case .noIMU: return "no IMU sample of the device inside the ride"
        case .noData: return "no IMU sample and no fix of the device inside the ride"
        case .unusableIMU:
            if let rate = rateHz, rate < minimumRateHz {
                return String(format: "not measured: rate too low (%.1f Hz measured, %.0f Hz needed for weighting up to 20 Hz)", rate, minimumRateHz)
            }
            return String(format: "not measured: less than %.0f s of usable IMU data inside the ride", minimumSeconds)
        }
    }

    private func metrics(_ unsorted: [IMUSample]) -> (status: Ride.Status, metrics: RideMetrics?, rateHz: Double?) {
        var samples = unsorted
        samples.sort { $0.time < $1.time }
        guard samples.count > 1 else { return (.noIMU, nil, nil) }
        let span = samples.first!.time.seconds(until: samples.last!.time)
        let native = StreamTiming.of(samples).usableRateHz ?? 0  // repeats seen through, bursts not taken for the rate
        guard span >= Self.minimumSeconds, native >= Self.minimumRateHz else { return (.unusableIMU, nil, native) }
        let rate = native >= 90 ? 100.0 : 50.0
        // The window bounds the span (max_ride_seconds); a grid past UniformGrid.maxCount is refused, not allocated.
        guard span * rate < Double(UniformGrid.maxCount) else { return (.unusableIMU, nil, native) }
        let grid = UniformGrid(covering: samples, rateHz: rate)
        var axes = grid.resample(samples, maxGapSeconds: 1)
        // Hold the last value across longer gaps (a paused recording adds no vibration).
        for axis in axes.indices {
            var last = axes[axis].first { !$0.isNaN } ?? 0
            for index in axes[axis].indices { if axes[axis][index].isNaN { axes[axis][index] = last } else { last = axes[axis][index] } }
        }
        guard let frame = VehicleFrame(x: axes[0], y: axes[1], z: axes[2], rateHz: rate) else { return (.unusableIMU, nil, rate) }
        return (.measured, RideMetrics(frame: frame, rateHz: rate, parameters: parameters), rate)
    }

    static func accelerationWithGravity(_ recording: Recording) -> [IMUSample] {
        if let total = recording.streams[.accelerometer], !total.isEmpty { return total }
        guard recording.accelerationBasis == .linearAcceleration else { return [] }
        // Gridded per run of samples, so a pause costs nothing (see `accelerationPieces`).
        return recording.accelerationPieces(splittingAtGapsOver: 1).flatMap(Self.linearPlusGravity)
    }

    private static func linearPlusGravity(_ piece: Recording) -> [IMUSample] {
        guard let linear = piece.streams[.linearAcceleration], let gravity = piece.streams[.gravity] else { return [] }
        let grid = UniformGrid(covering: linear, rateHz: 100)
        let g = grid.resample(gravity, maxGapSeconds: 1)
        let l = grid.resample(linear, maxGapSeconds: 1)
        return (0..<grid.count).compactMap { i in
            let sum = (l[0][i] + g[0][i], l[1][i] + g[1][i], l[2][i] + g[2][i])
            return sum.0.isNaN || sum.1.isNaN || sum.2.isNaN ? nil
                : IMUSample(time: Timestamp(secondsSince1970: grid.time(at: i)), x: sum.0, y: sum.1, z: sum.2)
        }
    }
}
