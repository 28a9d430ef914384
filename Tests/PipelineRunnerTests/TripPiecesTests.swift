import Foundation
import Fusion
import MobilityCore
import Store
import TestSupport
import Testing
import Trips

/// The trip stage reads a device a piece at a time and cuts its track at long stays and long
/// gaps (`TrackPieceAnalysis`): its results must be those of the whole track analysed at once,
/// bit for bit, however the fixes come and wherever it cuts.
@Suite struct TripPiecesTests {
    /// A simulated city of several days, its phones' IMU windows classified and stored, some
    /// trips with the GPS off (legs by time); `pipeline run` fills the store. `options` are
    /// added to `pipeline simulate`'s.
    static func store(_ folder: TemporaryFolder, options: [String] = []) throws -> PipelineStore {
        let cli = PipelineCLI()
        let simulated = try cli.pipeline(
            [
                "simulate", "--devices", "4", "--days", "3", "--imu-trips-per-day", "2", "--imu-devices", "3", "--imu-rate", "20",
                "--phone-off-share", "0.3", "--out", folder.file("traces")
            ] + options, in: folder.path)
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let run = try cli.pipeline(["run", folder.file("traces"), "--out", folder.file("out")], in: folder.path)
        #expect(run.status == 0 || run.status == 2, "\(run.stderr)")
        return try PipelineStore(path: StoreLocation.path(in: folder.file("out")))
    }

    @Test func piecesOfAnySizeCutAtLongStaysGiveTheWholeTracksResults() throws {
        let folder = try TemporaryFolder()
        try Self.comparePieces(try Self.store(folder), stays: true)
    }

    /// A logger that records (nearly) only on the move: at rest a fix every 4,000 s,
    /// so no sliding stay of an hour (fixes more than the staypoints' 900 s apart drop one,
    /// leaving only the minutes a trip's first and last fixes wait), and every night and every
    /// day at work a gap to cut at, which is a stay across the gap.
    @Test func aTrackOfTripsAloneIsCutAtItsGapsAndGivesTheWholeTracksResults() throws {
        let folder = try TemporaryFolder()
        try Self.comparePieces(try Self.store(folder, options: ["--gps-still-interval", "4000"]), stays: false)
    }

    /// Each device of `store` analysed whole and in pieces, compared; `stays`: whether its
    /// tracks have stays of an hour (else they are cut at an hour's gaps alone).
    static func comparePieces(_ store: PipelineStore, stays: Bool) throws {
        let geofences = try store.geofences()
        let stored = try store.modeSpans()
        let fusion = LegFusion(legModel: nil, imuClasses: [.still, .walk, .bike, .bus, .car, .train])
        let analysis = TripAnalysis()
        var cuts = 0, hourCuts = 0, legsByTime = 0, legs = 0
        let spoolFolder = try TemporaryFolder()
        let spool = try TextSpool(directory: spoolFolder.path)
        for name in try store.trackNames() {
            let spans = stored[name] ?? [], imu = spans.filter { $0.source.isIMUModel }
            func modes(_ track: DeviceTrack, _ stays: [Staypoint]) -> ModeTimeline {
                DeviceModes.timeline(track, stored: spans, staypoints: stays)
            }
            let track = DeviceTrack(device: name, points: try store.trackPoints(named: name))
            let whole = analysis.analyse(
                track, geofences: geofences, modes: modes,
                legs: { track, legs in
                    var decisions = DeviceLegs(fusion, imuSpans: imu, device: name)
                    decisions.decide(track, legs: &legs)
                    decisions.finish(&legs)
                }
            ).compacted()
            if stays {
                #expect(whole.staypoints.contains { $0.durationSeconds >= 3_600 }, "a night at home to cut at")
            } else {
                #expect(
                    !whole.staypoints.contains { $0.kind == .sliding && $0.durationSeconds >= 3_600 },
                    "no sliding stay of an hour: cut at gaps alone")
                // Its rests are stays across the gaps, each kept with the piece before its cut.
                #expect(whole.staypoints.contains { $0.kind == .gap && $0.durationSeconds >= 3_600 }, "stays across the gaps")
                #expect(track.points.indices.dropFirst().contains { track.secondsBefore($0) >= 3_600 }, "a gap to cut at")
            }
            legs += whole.triplegs.count
            legsByTime += whole.triplegs.filter(\.byTime).count
            // Pieces of one fix, of a few hours and of the whole track; cut at every stay longer
            // than the GPS windows' widest context (750 s) and every gap longer than the
            // staypoints' (900 s), at nights, long stays and gaps of an hour, or never. The
            // fixes held in memory, or past 2,000 of them in a file, as `pipeline run` holds
            // them past 262,144 (a track never cut is then read from the file whole).
            for (pieceSize, cutSeconds, inFile) in [
                (1, 800.0, false), (997, 800, false), (997, 3_600, false), (997, 1e9, false), (1_000_000, 800, false),
                (1_000_000, 3_600, false), (997, 800, true), (997, 1e9, true), (1_000_000, 1e9, true)
            ] {
                do {
                    var pieces = TrackPieceAnalysis(
                        analysis, device: name, geofences: geofences, modes: modes, legs: DeviceLegs(fusion, imuSpans: imu, device: name))
                    pieces.cutSeconds = cutSeconds
                    pieces.zoneBoundaries = ShippedData.zoneBoundaries
                    // The lines in memory, or in a spool as `pipeline run` keeps them.
                    if pieceSize == 997 { pieces.lineSpool = spool }
                    if inFile { (pieces.fixFolder, pieces.memoryFixes) = (spoolFolder.path, 2_000) }
                    #expect(try store.forEachTrackPiece(named: name, pieceSize: pieceSize) { try pieces.add($0) })
                    cuts += pieces.cuts
                    if cutSeconds == 3_600 { hourCuts += pieces.cuts }
                    if inFile, cutSeconds == 1e9 { #expect(pieces.fixesInFile, "\(name): a track never cut goes to the file") }
                    let (result, zone) = pieces.finish()
                    let context = "\(name), pieces of \(pieceSize), cut at stays and gaps of \(cutSeconds) s\(inFile ? ", in a file" : "")"
                    #expect(result.staypoints == whole.staypoints, "\(context)")
                    #expect(result.dwells == whole.dwells, "\(context)")
                    #expect(result.triplegs == whole.triplegs, "\(context)")
                    #expect(result.trips == whole.trips, "\(context)")
                    #expect(result.observed == whole.observed, "\(context)")
                    #expect(zone == DeviceZone.fromFixes(track, boundaries: ShippedData.zoneBoundaries), "\(context)")
                    for index in whole.triplegs.indices {
                        #expect(try result.line(ofLeg: index) == whole.line(ofLeg: index), "\(context), leg \(index)")
                        #expect(result.start(ofLeg: index) == whole.start(ofLeg: index), "\(context), leg \(index)")
                    }
                }
            }
        }
        #expect(legs > 20 && legsByTime > 0, "legs by fixes and by time to compare")
        #expect(cuts > 20 && hourCuts > 10, "the tracks were cut")
    }
}
