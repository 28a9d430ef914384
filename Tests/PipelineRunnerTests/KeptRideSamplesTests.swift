import Comfort
import Features
import Foundation
import MobilityCore
import Store
import TestSupport
import Testing

@testable import PipelineRunner

/// What ingest keeps of a recording for the comfort stage gives, for any ride inside it, the
/// samples the recording itself gives (`RideAcceleration.of`), and nothing outside it.
@Suite struct KeptRideSamplesTests {
    let start = 1_714_980_000.0

    /// Two hours at 50 Hz of one stream, with a wobble so no two samples are alike.
    func stream(_ sensor: IMUSensor) -> [IMUSample] {
        (0..<(2 * 3600 * 50)).map { index in
            let t = start + Double(index) / 50
            return IMUSample(time: Timestamp(secondsSince1970: t), x: sin(t), y: cos(t), z: 9.81 + sin(3 * t) / 7)
        }
    }

    /// The store's row for a file of that content.
    func file(_ path: String, contentSHA256: String = "aaa") -> PipelineStore.IMUFile {
        PipelineStore.IMUFile(path: path, contentSHA256: contentSHA256)
    }

    func keeper(_ folder: TemporaryFolder, checkIns: [Double], whole: Bool = false) -> KeptRideSamples {
        KeptRideSamples(folder: folder.file("kept"), maxRideSeconds: 1800, wholeRecordings: whole) { device in
            device == "phone" ? checkIns : []
        }
    }

    @Test func aRideInsideWhatWasKeptHasTheRecordingsOwnSamples() throws {
        let folder = try TemporaryFolder()
        let recording = Recording(trace: "a.csv", device: "phone", streams: [.accelerometer: stream(.accelerometer)])
        let kept = keeper(folder, checkIns: [start + 3600])
        kept.keep(path: "a.csv", contentSHA256: "aaa", recording: recording)
        // Kept: 15 min before the check-in to 30 min after it.
        let from = start + 3600 - 900, to = start + 3600 + 1800
        let ride = try #require(kept.acceleration(of: file("a.csv"), from: from + 10, to: to - 10))
        let expected = RideAcceleration.of(recording, from: from + 10, to: to - 10)
        #expect(ride.samples == expected.samples && ride.gravityIncluded && ride.samples.count > 80_000)
        #expect(
            kept.acceleration(of: file("a.csv"), from: from - 1, to: to - 10) == nil, "a ride starting before what was kept reads the file")
        #expect(kept.acceleration(of: file("a.csv"), from: from + 10, to: to + 1) == nil)
        #expect(kept.acceleration(of: file("b.csv"), from: from + 10, to: to - 10) == nil, "a file not kept")
        #expect(
            kept.acceleration(of: file("a.csv", contentSHA256: "bbb"), from: from + 10, to: to - 10) == nil,
            "another content at the same path")
        #expect(kept.served == 1 && kept.missed == 4)
        kept.discard()
        #expect(!FileManager.default.fileExists(atPath: folder.file("kept")))
    }

    @Test func gravityFreeAccelerationIsKeptAsTheRecordingGivesIt() throws {
        let folder = try TemporaryFolder()
        let recording = Recording(trace: "a.csv", device: "phone", streams: [.linearAcceleration: stream(.linearAcceleration)])
        let kept = keeper(folder, checkIns: [], whole: true)
        kept.keep(path: "a.csv", contentSHA256: "aaa", recording: recording)
        let ride = try #require(kept.acceleration(of: file("a.csv"), from: start + 100, to: start + 5000))
        let expected = RideAcceleration.of(recording, from: start + 100, to: start + 5000)
        #expect(!ride.gravityIncluded && !expected.gravityIncluded && ride.samples == expected.samples && !ride.samples.isEmpty)
    }

    @Test func nothingIsKeptForADeviceWithoutCheckIns() throws {
        let folder = try TemporaryFolder()
        let kept = keeper(folder, checkIns: [start])
        kept.keep(
            path: "a.csv", contentSHA256: "aaa",
            recording: Recording(trace: "a.csv", device: "other", streams: [.accelerometer: stream(.accelerometer)]))
        #expect(kept.acceleration(of: file("a.csv"), from: start, to: start + 60) == nil)
        #expect(!FileManager.default.fileExists(atPath: folder.file("kept")), "no file written")
    }

    @Test func rangesAreJoinedAndFoundByBisection() {
        let ranges = KeptRideSamples.merged([5.0...6.0, 0.0...1.0, 0.5...2.0, 8.0...9.0])
        #expect(ranges == [0.0...2.0, 5.0...6.0, 8.0...9.0])
        let inside = KeptRideSamples.membership(ranges)
        #expect([-1.0, 0.0, 1.5, 2.0, 3.0, 5.0, 7.0, 9.0, 9.5].map(inside) == [false, true, true, true, false, true, false, true, false])
    }
}
