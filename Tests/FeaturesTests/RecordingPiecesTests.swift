@testable import Features
import Foundation
import MobilityCore
import TestSupport
import Testing

/// Cost follows the samples, never the calendar: a recording is gridded and windowed per run
/// of data, so a stray sample or fix years away adds one small piece, not years of windows.
@Suite struct RecordingPiecesTests {
    let extractor = WindowFeatureExtractor()
    let origin = 1_700_000_000.0

    func walk(seconds: Double, start: Double) -> Recording {
        Recording(trace: "t", device: "d", streams: SyntheticIMU().streams(.walk, seconds: seconds, start: start))
    }

    @Test func aSampleAYearLaterAddsNoWindowsBetween() {
        var recording = walk(seconds: 30, start: origin)
        let alone = extractor.extract(recording).count
        let later = Timestamp(secondsSince1970: origin + 365 * 86_400)
        for sensor in [IMUSensor.accelerometer, .gyroscope] {
            recording.streams[sensor]!.append(IMUSample(time: later, x: 0, y: 0, z: 9.8))
        }
        #expect(recording.accelerationPieces(splittingAtGapsOver: 2).count == 2)
        #expect(extractor.extract(recording).count == alone)
    }

    @Test func twoRunsOfDataAreWindowedEachFromItsOwnStart() throws {
        var recording = walk(seconds: 30, start: origin)
        let second = walk(seconds: 30, start: origin + 100.01)
        for (sensor, samples) in second.streams { recording.streams[sensor]! += samples }
        let pieces = recording.accelerationPieces(splittingAtGapsOver: 2)
        #expect(pieces.count == 2 && pieces.allSatisfy { $0.streams[.gyroscope]!.count == 1500 })
        let table = extractor.extract(recording)
        #expect(table.count == 22)
        let starts = table.windows.map { $0.start.secondsSince1970 - origin }
        #expect(abs(starts[11] - 100.01) < 1e-6, "the second run's windows start at its first sample")
    }

    @Test func threeFixesOverTwentyYearsMakeNoWindows() {
        let fixes = [0.0, 10 * 365 * 86_400, 20 * 365 * 86_400].map {
            PositionFix(time: Timestamp(secondsSince1970: 700_000_000 + $0), latitudeDegrees: 48, longitudeDegrees: 2)
        }
        let table = extractor.extract(Recording(trace: "t", device: "d", fixes: fixes))
        #expect(table.count == 0)
    }

    @Test func runsSplitOnlyAtGapsLongerThanTheLimit() {
        #expect(Recording.runs([], splittingAtGapsOver: 2).isEmpty)
        #expect(Recording.runs([5], splittingAtGapsOver: 2) == [0..<1])
        #expect(Recording.runs([0, 1, 3, 6, 6.5, 100], splittingAtGapsOver: 2) == [0..<3, 3..<5, 5..<6])
    }
}
