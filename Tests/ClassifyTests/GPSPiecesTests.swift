import Classify
import Features
import Foundation
import MobilityCore
import Testing

/// A long GPS-only track windowed in pieces (`forEachGPSPiece`, as `GPSModeSpans` does to bound
/// memory) gives the windows, rows and smoothed modes of windowing it whole.
@Suite struct GPSPiecesTests {
    /// Three hours at 1 Hz: walking, a stop, driving, with a 20-minute pause and a stretch at one
    /// fix a minute, so pieces cross runs, segments and intervals.
    static func recording() -> Recording {
        var fixes: [PositionFix] = []
        var (t, lat, lon) = (1_700_000_000.0, 48.85, 2.35)
        func add(_ seconds: Int, step: Double, every: Double = 1) {
            var elapsed = 0.0
            while elapsed < Double(seconds) {
                fixes.append(
                    PositionFix(time: Timestamp(secondsSince1970: t), latitudeDegrees: lat, longitudeDegrees: lon, accuracyMeters: 5))
                t += every
                elapsed += every
                lat += step * every / 111_000
                lon += step * every / 73_000 * sin(t / 300)
            }
        }
        add(2_400, step: 1.4)
        add(900, step: 0)
        add(3_000, step: 12)
        t += 1_200
        add(1_800, step: 9, every: 60)
        add(1_500, step: 1.2)
        return Recording(trace: "t", device: "d", fixes: fixes)
    }

    @Test func piecesGiveTheWholeTablesWindowsRowsAndModes() throws {
        let extractor = WindowFeatureExtractor()
        let recording = Self.recording()
        let whole = extractor.extract(recording)
        try #require(whole.count > 3_000)
        var pieces: [FeatureTable] = []
        extractor.forEachGPSPiece(recording, maxWindows: 97) { pieces.append($0) }
        #expect(pieces.count > 30 && pieces.allSatisfy { $0.count <= 97 })
        #expect(pieces.flatMap(\.windows) == whole.windows)
        // What GPSModeSpans reserves: every window, and no more than the windows before the
        // empty ones are dropped.
        let bound = extractor.gpsWindowBound(recording.fixes)
        #expect(bound >= whole.count && bound <= whole.count + whole.count / 10, "\(bound) for \(whole.count) windows")
        let values = pieces.flatMap(\.values)
        #expect(values.count == whole.values.count)
        #expect(zip(values, whole.values).allSatisfy { $0.bitPattern == $1.bitPattern }, "every row bit for bit, NaN where NaN")

        let predictor = ModePredictor(model: nil)
        var probabilities: [Double] = [], sources: [Decider] = []
        for piece in pieces {
            let scored = predictor.scores(piece)
            probabilities += scored.probabilities
            sources += scored.sources
        }
        let pieced = predictor.prediction(windows: whole.windows, probabilities: probabilities, sources: sources)
        let direct = predictor.predict(whole)
        #expect(pieced.modes == direct.modes && pieced.raw == direct.raw && pieced.probabilities == direct.probabilities)
        #expect(Set(direct.modes).count > 1, "the track is more than one mode: \(Set(direct.modes))")
    }
}
