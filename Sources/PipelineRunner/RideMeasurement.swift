import Comfort
import Features
import Foundation
import Ingest
import MobilityCore
import Store

/// Turns a device's IMU recordings into what one ride window holds: the accelerometer with
/// gravity (or linear acceleration plus the gravity stream; or, without either, the gravity-free
/// acceleration with an estimated vertical) inside the window, cut into gap-free pieces, each
/// resampled to a uniform 50 Hz (100 Hz when the phone records at 90 Hz or more), then
/// `VehicleFrame`, `StopDetector` and `RideMetrics` (`RideAcceleration`).
struct RideMeasurement {
    var loader: RecordingLoader
    var parameters = RideMetrics.Parameters()
    var stopDetector = StopDetector()

    /// The acceleration inside [start, end] of the IMU `files` (each read with the column mapping
    /// it was ingested with). A file that cannot be read now (gone, changed into something
    /// unreadable since ingest) is left out and returned in `unreadable`, so one bad file never
    /// stops the stage.
    func acceleration(files: [PipelineStore.IMUFile], from start: Double, to end: Double) -> (RideAcceleration, unreadable: [InputError]) {
        var withGravity: [IMUSample] = [], gravityFree: [IMUSample] = []
        var unreadable: [InputError] = []
        for file in files {
            do {
                var loader = self.loader
                loader.mappings = try ColumnMappings(stored: file.columnMapping)
                unreadable += try loader.load([file.path], progress: Progress(quiet: true)) { recording in
                    let part = RideAcceleration.of(recording, from: start, to: end)
                    if part.gravityIncluded { withGravity += part.samples } else { gravityFree += part.samples }
                }.quarantined
            } catch let error as InputError {
                unreadable.append(error)
            } catch {
                unreadable.append(InputError(.unreadable, "\(error)", path: file.path))
            }
        }
        var acceleration = withGravity.isEmpty ? RideAcceleration(samples: gravityFree, gravityIncluded: false) : RideAcceleration(samples: withGravity)
        acceleration.samples.sort { $0.time < $1.time }
        return (acceleration, unreadable)
    }

    /// The ride's metrics, stops and frame from its acceleration; `speeds`: GPS speeds in the ride.
    func analyse(_ acceleration: RideAcceleration, speeds: [(seconds: Double, metersPerSecond: Double)] = []) -> RideAnalysis {
        var (analysis, pieces, rate) = RideAcceleration.pieces(acceleration)
        guard !pieces.isEmpty else { return analysis }
        guard var frame = VehicleFrame(pieces: pieces, rateHz: rate, gravityIncluded: acceleration.gravityIncluded) else {
            analysis.note = "not measured: the acceleration holds no gravity (its mean is under 1 m/s²) though the stream says it does"
            return analysis
        }
        analysis.stops = stopDetector.stops(in: pieces, rateHz: rate, speeds: speeds)
        frame.orientForward(stops: analysis.stops.map { ($0.startSeconds, $0.endSeconds) }, rateHz: rate)
        analysis.metrics = RideMetrics(frame: frame, rateHz: rate, parameters: parameters)
        analysis.verticalSource = frame.verticalSource
        analysis.status = .measured
        return analysis
    }
}
