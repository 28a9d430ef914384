@testable import Features
import Foundation
import MobilityCore
import Testing

/// `GPSFeatures.Chords`: a window's features from the chords measured once per array of fixes
/// are bit for bit those measured in the window itself.
@Suite struct GPSChordsTests {
    /// 3,000 fixes 0–4 s apart (some at the same second), wandering in steps of 0–12 m (some
    /// under the 3 m a heading needs), some with a reported speed, an accuracy or an HDOP.
    static func track() -> [PositionFix] {
        var g = SeededGenerator(seed: 7)
        var (time, latitude, longitude) = (1_700_000_000.0, 60.17, 24.94)
        return (0..<3000).map { index in
            time += [0, 0.5, 1, 1, 1, 2, 4][Int(g.nextUnit() * 7)]
            let step = g.nextUnit() * 12, heading = g.nextUnit() * 2 * .pi
            latitude += step * cos(heading) / 111_195
            longitude += step * sin(heading) / (111_195 * cos(latitude * .pi / 180))
            return PositionFix(
                time: Timestamp(secondsSince1970: time), latitudeDegrees: latitude, longitudeDegrees: longitude,
                accuracyMeters: index % 3 == 0 ? 4 + g.nextUnit() * 10 : nil, hdop: index % 5 == 0 ? 1.2 : nil,
                speedMetersPerSecond: index % 7 == 0 ? g.nextUnit() * 9 : nil)
        }
    }

    @Test func windowsFromSharedChordsAreThoseMeasuredInEachWindow() {
        let fixes = Self.track()
        let gps = GPSFeatures()
        let chords = gps.chords(fixes)
        #expect(chords.from.filter { $0 >= 0 }.count > 2000, "most fixes have a fix 5 s before")
        #expect(chords.bearings.contains { $0.isNaN } && chords.bearings.contains { !$0.isNaN })
        var g = SeededGenerator(seed: 8)
        var (shared, measured) = ([Double](repeating: 0, count: GPSFeatures.count), [Double](repeating: 0, count: GPSFeatures.count))
        var windows = 0
        for _ in 0..<2000 {
            let lower = Int(g.nextUnit() * Double(fixes.count - 1)), length = Int(g.nextUnit() * 40)
            let window = fixes[lower..<min(fixes.count, lower + length)]
            gps.compute(fixes: window, chords: chords, into: &shared, at: 0)
            gps.compute(fixes: window, chords: nil, into: &measured, at: 0)
            #expect(shared.map(\.bitPattern) == measured.map(\.bitPattern), "fixes \(window.indices)")
            if !measured[0].isNaN { windows += 1 }
        }
        #expect(windows > 1500)
        // And the windows do read the shared chords: doubled, they change the speeds.
        var doubled = chords
        doubled.meters = chords.meters.map { $0 * 2 }
        let window = fixes[100..<130]
        gps.compute(fixes: window, chords: doubled, into: &shared, at: 0)
        gps.compute(fixes: window, chords: chords, into: &measured, at: 0)
        #expect(shared[0] > measured[0] * 1.2, "\(shared[0]) vs \(measured[0])")
    }
}
