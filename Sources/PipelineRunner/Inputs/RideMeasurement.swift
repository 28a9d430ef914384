import Comfort
import Features
import Foundation
import Ingest
import MobilityCore
import Store

/// Reads what one ride window holds from a device's IMU recordings: the accelerometer with
/// gravity (or linear acceleration plus the gravity stream; or, without either, the gravity-free
/// acceleration with an estimated vertical) inside the window (`RideAcceleration`), for
/// Comfort's `RideAnalyser`, which cuts it into gap-free pieces, each resampled to a uniform
/// 50 Hz (100 Hz when the phone records at 90 Hz or more), and measures it.
struct RideMeasurement {
    var loader: RecordingLoader
    /// What ingest kept of the recordings it read this run: a ride inside it is measured from
    /// it, and its file is not parsed again.
    var kept: KeptRideSamples?

    /// The acceleration inside [start, end] of the IMU `files` (each read with the column mapping
    /// it was ingested with). A file that cannot be read now (gone, changed into something
    /// unreadable since ingest) is left out and returned in `unreadable`, so one bad file never
    /// stops the stage.
    func acceleration(files: [PipelineStore.IMUFile], from start: Double, to end: Double) -> (RideAcceleration, unreadable: [InputError]) {
        var withGravity: [IMUSample] = [], gravityFree: [IMUSample] = []
        var unreadable: [InputError] = []
        for file in files {
            if let part = kept?.acceleration(of: file, from: start, to: end) {
                if part.gravityIncluded { withGravity += part.samples } else { gravityFree += part.samples }
                continue
            }
            do {
                var loader = self.loader
                loader.mappings = try ColumnMappings(stored: file.columnMapping)
                unreadable += try loader.load([file.path], progress: ProgressReporter(quiet: true)) { recording in
                    let part = RideAcceleration.of(recording, from: start, to: end)
                    if part.gravityIncluded { withGravity += part.samples } else { gravityFree += part.samples }
                }.quarantined
            } catch let error as InputError {
                unreadable.append(error)
            } catch {
                unreadable.append(InputError(.unreadable, "\(error)", path: file.path))
            }
        }
        var acceleration =
            withGravity.isEmpty ? RideAcceleration(samples: gravityFree, gravityIncluded: false) : RideAcceleration(samples: withGravity)
        acceleration.samples.sort { $0.time < $1.time }
        return (acceleration, unreadable)
    }
}
