import Classify
import Features
import MobilityCore
import TestSupport
import Testing

/// Labels the fixes make impossible are set aside, and a leg model's held-out scores per mode
/// are what its outcomes say.
@Suite struct LegLabelScreenTests {
    /// One labelled 1 Hz leg of `seconds` at `speed`, as recorded.
    static func leg(_ label: String, seconds: Double = 1_200, speed: @escaping (Double) -> Double) -> LegTable {
        var recording = Recording(trace: "diary.csv", device: "phone")
        recording.fixes = KnownLegs.fixes(from: KnownLegs.start, seconds: seconds, speed: speed)
        recording.labels = [
            LabelInterval(
                device: "phone", start: Timestamp(secondsSince1970: KnownLegs.start),
                end: Timestamp(secondsSince1970: KnownLegs.start + seconds), rawName: label, source: "labels_file")
        ]
        return LabelledLegs.of(recording)
    }

    /// A diary's "walk" at 13 m/s with stops (a 20-minute car or train ride remembered as a
    /// walk) is set aside with its reason; a brisk walk, a jog and a fast bike ride are kept.
    @Test func aWalkNoOneCouldWalkIsSetAsideAndSaysWhy() throws {
        let ride = Self.leg("walk") { t in t.truncatingRemainder(dividingBy: 120) < 100 ? 13 : 0 }
        #expect(ride.count == 1 && LegTrainer.labelled(ride).count == 0)
        let aside = LegTrainer.setAside(ride)
        #expect(aside.count == 1 && aside[0].reason.contains("faster than 7 m/s"), "\(aside)")
        for (label, speed) in [("walk", 1.6), ("walk", 3.4), ("bike", 11.0)] {
            let kept = Self.leg(label) { _ in speed }
            #expect(LegTrainer.labelled(kept).count == 1 && LegTrainer.setAside(kept).isEmpty, "\(label) at \(speed) m/s")
        }
        #expect(LegTrainer.setAside(Self.leg("bike") { _ in 16 }).count == 1, "a bike at 58 km/h was a motor vehicle")
        #expect(LegTrainer.setAside(Self.leg("train") { _ in 40 }).isEmpty, "vehicles have no upper limit here")
    }

    /// Per data set and mode: recall is the share of the mode's labelled time answered it,
    /// precision the share of the time answered it that was it; `vehicle` is right for any
    /// vehicle type, and its share of the vehicle time is the family-only share.
    @Test func heldOutScoresAreTheOutcomesTimeWeighted() throws {
        func outcome(_ dataset: String, _ truth: Mode, _ said: Mode, minutes: Double) -> WindowOutcome {
            var o = WindowOutcome(trace: "\(dataset)/t", device: "d", truth: truth, predicted: said, baseline: .walk, source: .gpsLegModel)
            (o.dataset, o.seconds) = ("/data/\(dataset)", minutes * 60)
            return o
        }
        let scores = LegHeldOutScores(
            heldOutBy: "each data set left out",
            [
                outcome("city-a", .walk, .walk, minutes: 30), outcome("city-a", .train, .walk, minutes: 10),
                outcome("city-a", .train, .train, minutes: 30), outcome("city-a", .bus, .vehicle, minutes: 20),
                outcome("city-b", .train, .bus, minutes: 5)
            ])
        #expect(scores.datasets.map(\.dataset) == ["city-a", "city-b"], "folder names, never the path")
        let a = try #require(scores.datasets.first)
        #expect(a.legs == 4 && a.vehicleAnswered == 20.0 / 60)
        let train = try #require(a.modes.first { $0.mode == .train })
        #expect(train.labelledMinutes == 40 && train.answeredMinutes == 30 && train.recall == 0.75 && train.precision == 1)
        let walk = try #require(a.modes.first { $0.mode == .walk })
        #expect(walk.recall == 1 && walk.precision == 0.75)
        let vehicle = try #require(a.modes.first { $0.mode == .vehicle })
        #expect(vehicle.recall == nil && vehicle.precision == 1, "vehicle is the family: right for a bus")
        #expect(scores.scores(of: .bus).map(\.dataset) == ["city-a", "city-b"])
        #expect(scores.scores(of: .bus)[1].score.precision == 0 && scores.scores(of: .bus)[0].score.precision == nil)
    }

    /// Data sets go by their folder's name; two of the same name are told apart by the folders
    /// above them, never merged (their persons and scores would be counted as one set's).
    @Test func twoDataSetsOfOneFolderNameKeepTwoNames() {
        let names = DataIdentity.names(ofDatasets: ["/data/2019/legs", "/data/2020/legs", "../shared/cbs-ssi", "/data/2019/legs/"])
        #expect(names["/data/2019/legs"] == "2019/legs" && names["/data/2020/legs"] == "2020/legs")
        #expect(names["../shared/cbs-ssi"] == "cbs-ssi")
        #expect(Set(names.values).count == names.count - 1, "one folder given twice is one data set: \(names)")
    }

    /// A thinned leg is matched to the recorded leg whose span holds its middle; kept counts
    /// the same answer, whatever the truth: a train called bus at both rates is kept.
    @Test func aThinnedLegKeepsItsAnswerWhenItSaysWhatTheRecordedLegSaid() throws {
        func leg(_ truth: Mode, _ said: Mode, from start: Double, to end: Double) -> WindowOutcome {
            var o = WindowOutcome(trace: "t", device: "d", truth: truth, predicted: said, baseline: .walk, source: .gpsLegModel)
            o.span = start...end
            return o
        }
        let recorded = [
            leg(.walk, .walk, from: 0, to: 600), leg(.train, .bus, from: 900, to: 2_000), leg(.bike, .bike, from: 2_500, to: 3_000)
        ]
        let thinned = [
            leg(.walk, .bike, from: 10, to: 590), leg(.train, .bus, from: 930, to: 1_980), leg(.bike, .vehicle, from: 2_520, to: 2_990),
            leg(.bus, .bus, from: 5_000, to: 5_100) // no recorded leg: not counted
        ]
        let kept = try #require(LegKept.of(thinned: thinned, recorded: recorded).first)
        #expect(kept.legs == 3 && kept.mode == 1.0 / 3 && kept.family == 1.0 / 3, "walk → bike and bike → vehicle change the family")
    }
}
