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

    /// A device's track read as `TrackFixes` (the trip stage's GPS modes: only a piece's fixes
    /// are made `PositionFix`es at a time) gives the same windows and rows bit for bit, and a
    /// leg read from it the leg features of the same fixes as an array.
    @Test func aTracksFixesReadInPiecesGiveTheRecordingsWindowsAndLegFeatures() throws {
        let extractor = WindowFeatureExtractor()
        let recording = Self.recording()
        let whole = extractor.extract(recording)
        let points = recording.fixes.map {
            TrackPoint(
                timeSeconds: $0.time!.secondsSince1970, latitudeDegrees: $0.latitudeDegrees, longitudeDegrees: $0.longitudeDegrees,
                accuracyMeters: $0.accuracyMeters!)
        }
        let fixes = TrackFixes(TrackPoints(points))
        #expect(fixes.count == recording.fixes.count && fixes.elementsEqual(recording.fixes))
        var pieces: [FeatureTable] = []
        extractor.forEachGPSPiece(fixes, trace: "t", device: "d", maxWindows: 53) { pieces.append($0) }
        #expect(pieces.count > 50 && pieces.allSatisfy { $0.count <= 53 })
        #expect(pieces.flatMap(\.windows) == whole.windows)
        let values = pieces.flatMap(\.values)
        #expect(values.count == whole.values.count)
        #expect(zip(values, whole.values).allSatisfy { $0.bitPattern == $1.bitPattern }, "every row bit for bit, NaN where NaN")
        #expect(extractor.gpsWindowBound(times: fixes.times) == extractor.gpsWindowBound(recording.fixes))

        // Some of the points (every third), as the trip stage reads a track's fixes outside its stays.
        let chosen = TrackFixes(TrackPoints(points), indices: Array(stride(from: 0, to: points.count, by: 3)))
        let everyThird = stride(from: 0, to: points.count, by: 3).map { recording.fixes[$0] }
        #expect(chosen.elementsEqual(everyThird))
        let features = LegFeatures()
        for range in [0..<800, 100..<801, 1_000..<2_000, 0..<chosen.count] {
            let fromTrack = try #require(features.compute(chosen[range]))
            let fromArray = try #require(features.compute(everyThird[range]))
            #expect(zip(fromTrack, fromArray).allSatisfy { $0.bitPattern == $1.bitPattern }, "\(range)")
            var (tableA, tableB) = (LegTable(), LegTable())
            #expect(tableA.add(chosen[range], trace: "t", device: "d") && tableB.add(everyThird[range], trace: "t", device: "d"))
            #expect(tableA.legs == tableB.legs)
        }
        // The windows of every third fix, read from the track: the second segment's times (after
        // the pause) are read at an offset into the chosen points, not copied.
        var thirds: [FeatureTable] = []
        extractor.forEachGPSPiece(chosen, trace: "t", device: "d", maxWindows: 61) { thirds.append($0) }
        let thirdsWhole = extractor.extract(Recording(trace: "t", device: "d", fixes: everyThird))
        #expect(thirdsWhole.count > 1_000 && thirds.flatMap(\.windows) == thirdsWhole.windows)
        #expect(zip(thirds.flatMap(\.values), thirdsWhole.values).allSatisfy { $0.bitPattern == $1.bitPattern })
        #expect(extractor.gpsWindowBound(times: chosen.times) == extractor.gpsWindowBound(times: Array(chosen.times)))
    }
}
