@testable import Features
import Foundation
import MobilityCore
import Testing

/// A stream measured too slowly for the IMU features (a phone that logged its accelerometer
/// at 0.1 Hz) is never silently nothing: GPS decides its windows, or the note says why none.
@Suite struct LowRateTests {
    let extractor = WindowFeatureExtractor()
    let start = 1_700_000_000.0

    func accelerometer(rateHz: Double, seconds: Double) -> [IMUSensor: [IMUSample]] {
        let count = Int(seconds * rateHz)
        return [
            .accelerometer: (0..<count).map { i in
                IMUSample(time: Timestamp(secondsSince1970: start + Double(i) / rateHz), x: 0.1 * sin(Double(i)), y: 0, z: 9.81)
            }
        ]
    }

    /// A walk north at 1.4 m/s, one fix a second.
    func fixes(seconds: Int) -> [PositionFix] {
        (0..<seconds).map { i in
            PositionFix(
                time: Timestamp(secondsSince1970: start + Double(i)), latitudeDegrees: 48 + Double(i) * 1.4 / 111_195,
                longitudeDegrees: 2)
        }
    }

    /// A GPS logger writing one fix a minute (a walk at 1.4 m/s for 20 minutes, then a pause of
    /// 20 minutes, then 10 more): windows over both stretches, each with a speed from the fixes
    /// around it, none over the pause.
    @Test func aFixAMinuteStillGetsWindowsWithSpeeds() {
        let sparse = fixes(seconds: 3000).enumerated().filter { index, _ in index % 60 == 0 && !(1260..<2400).contains(index) }.map(
            \.element)
        let table = extractor.extract(Recording(trace: "t", device: "d", fixes: sparse))
        let speed = FeatureSchema.index(of: "gps_speed_p85_mps")!
        // Fixes 0-1200 s and 2400-2940 s: (1200 - 5) / 2.5 + 1 = 479 and (540 - 5) / 2.5 + 1 = 215 window starts.
        #expect(table.count == 479 + 215, "\(table.count) windows")
        #expect((0..<table.count).allSatisfy { abs(table.row($0)[table.row($0).startIndex + speed] - 1.4) < 0.01 })
        let pause = (start + 1230)...(start + 2370)
        #expect(!table.windows.contains { pause.contains($0.start.secondsSince1970) }, "no window bridges the 20 minutes without fixes")
    }

    @Test func aTooSlowStreamAloneSaysSo() {
        let (table, notes) = extractor.extractWithNotes(
            Recording(trace: "t", device: "d", streams: accelerometer(rateHz: 0.1, seconds: 600)))
        #expect(table.count == 0)
        #expect(notes.count == 1 && notes[0].hasPrefix("not classified: rate too low") && notes[0].contains("0.10 Hz"), "\(notes)")
    }

    @Test func aTooSlowStreamIsDecidedByGPS() {
        let recording = Recording(trace: "t", device: "d", streams: accelerometer(rateHz: 0.1, seconds: 120), fixes: fixes(seconds: 120))
        let (table, notes) = extractor.extractWithNotes(recording)
        #expect(table.count > 0)
        let imu = FeatureSchema.accelerationPresenceColumn, speed = FeatureSchema.index(of: "gps_speed_mean_mps")!
        #expect(table.windows.indices.allSatisfy { table.values[$0 * FeatureTable.columns + imu].isNaN })
        #expect(table.windows.indices.allSatisfy { abs(table.values[$0 * FeatureTable.columns + speed] - 1.4) < 0.05 })
        #expect(notes.count == 1 && notes[0].contains("rate too low") && notes[0].contains("decided by GPS"), "\(notes)")
    }

    @Test func aStreamAtTheMinimumRateHasIMUFeatures() {
        let (table, notes) = extractor.extractWithNotes(Recording(trace: "t", device: "d", streams: accelerometer(rateHz: 1, seconds: 60)))
        #expect(table.count > 0 && !table.values[FeatureSchema.accelerationPresenceColumn].isNaN)
        #expect(!notes.contains { $0.contains("rate too low") } && notes.contains { $0.contains("frequency features not computed") })
    }
}
