import Classify
import Features
import Foundation
import MobilityCore
import TestSupport
import Testing

/// The GPS leg model, its nested evaluation and trackintel's rule beside it, on legs with
/// known modes: walkers at 1.2-1.6 m/s, cyclists at 4-6 m/s, buses that stop every 400 m and
/// cruise at 11 m/s, trains at 20-25 m/s with a stop every 2 km.
@Suite struct GPSLegModelTests {
    static let start = KnownLegs.start
    static func fixes(from start: Double, seconds: Double, speed: (Double) -> Double) -> [PositionFix] {
        KnownLegs.fixes(from: start, seconds: seconds, speed: speed)
    }
    static func speed(of mode: Mode, variant: Double) -> (Double) -> Double { KnownLegs.speed(of: mode, variant: variant) }
    static func legs(people: [String]) -> LegTable { KnownLegs.legs(people: people, thinningSeconds: LegTrainer.thinningSeconds) }

    /// trackintel's default categories {15/3.6: slow, 100/3.6: motorised, inf: fast}, cut with
    /// pandas' `pd.cut` on intervals closed on the left (trackintel
    /// `analysis/transport_mode_identification.py`): 15 km/h itself is motorised.
    @Test func trackintelsRuleCutsAt15And100KilometresAnHour() {
        #expect(TrackintelBaseline.mode(averageSpeedMps: 0) == .walk)
        #expect(TrackintelBaseline.mode(averageSpeedMps: (15 / 3.6).nextDown) == .walk)
        #expect(TrackintelBaseline.mode(averageSpeedMps: 15 / 3.6) == .car)
        #expect(TrackintelBaseline.mode(averageSpeedMps: (100 / 3.6).nextDown) == .car)
        #expect(TrackintelBaseline.mode(averageSpeedMps: 100 / 3.6) == .train)
        #expect(
            TrackintelBaseline.coarse(.bike) == .walk && TrackintelBaseline.coarse(.bus) == .car
                && TrackintelBaseline.coarse(.train) == .car)
    }

    @Test func aTrainedLegModelTellsBusFromTrainOnSomeoneItNeverSaw() throws {
        let training = Self.legs(people: ["ann", "ben", "cat"]), unseen = Self.legs(people: ["dan"])
        for kind in ModeTrainer.Kind.allCases {
            let model = try LegTrainer(kind: kind).train(training)
            #expect(model.classes == [.walk, .bike, .bus, .train] && model.legsPerClass == ["walk": 6, "bike": 6, "bus": 6, "train": 6])
            #expect(model.thinnedToSeconds == [10, 60] && model.devices == ["ann", "ben", "cat"])
            let predicted = model.predict(unseen)
            // At one fix a minute the bus's 30 s stops fall between fixes and it cruises at a fast
            // cyclist's 6 m/s: there, only walk and train must be right; at 1 Hz and 10 s, all.
            for (leg, mode) in zip(unseen.legs, predicted) where leg.thinnedToSeconds != 60 || leg.mode == .walk || leg.mode == .train {
                #expect(mode == leg.mode, "\(kind): a \(leg.mode!) leg at \(leg.thinnedToSeconds ?? 1) s called \(mode)")
            }
        }
        // trackintel calls the bus (6 m/s on average) motorised and the train (13-16 m/s) too.
        let baseline = TrackintelBaseline.predict(unseen)
        #expect(zip(baseline, unseen.legs).filter { $1.mode == .bus || $1.mode == .train }.allSatisfy { $0.0 == .car })
    }

    @Test func nestedEvaluationScoresEveryLegOnceAtEveryRateOnPeopleOutsideItsTraining() throws {
        let table = Self.legs(people: ["ann", "ben", "cat", "dan"])
        var validation = LegCrossValidation(folds: 4, innerFolds: 3)
        validation.kinds = [.softmaxRegression, .mlp]
        let evaluation = try validation.evaluate(table)
        #expect(evaluation.folds.count == 4 && evaluation.folds.allSatisfy { $0.testGroups.count == 1 && $0.innerMacroF1 != nil })
        #expect(evaluation.folds.map(\.legs).reduce(0, +) == 32)
        for seconds in [nil, 10.0, 60.0] as [Double?] {
            let outcomes = evaluation.outcomes[seconds] ?? []
            #expect(outcomes.count == 32, "\(String(describing: seconds)): \(outcomes.count)")
            #expect(ConfusionMatrix(outcomes, \.smoothed).macroF1 > 0.9)
            #expect(ConfusionMatrix(outcomes, \.baseline).macroF1 < 0.5, "trackintel has no bike, bus or train")
        }
    }

    /// One person's two phones on the same days (as MobilityNet's): grouped by day, both phones'
    /// legs of a day are held out together, and the intervals resample days.
    @Test func groupedByDayBothPhonesOfADayAreHeldOutTogether() throws {
        var table = Self.legs(people: ["ann", "ben", "cat", "dan"])
        var second = table
        for index in second.legs.indices { second.legs[index].device += "-phone2" }
        table.append(second)
        var validation = LegCrossValidation(folds: 10, innerFolds: 2, groupBy: .day)
        validation.kinds = [.softmaxRegression]
        let evaluation = try validation.evaluate(table)
        let days = Set(table.legs.map { LegCrossValidation.group(of: $0, .day) })
        #expect(evaluation.folds.count == days.count && evaluation.groupBy == .day)
        #expect(evaluation.folds.flatMap(\.testGroups).sorted() == days.sorted())
        let outcomes = evaluation.outcomes[nil] ?? []
        #expect(outcomes.count == 64 && outcomes.allSatisfy { $0.group != nil && days.contains($0.group!) })
        // Each held-out day holds both phones' copies of its legs.
        for day in days {
            let devices = Set(outcomes.filter { $0.group == day }.map(\.device))
            #expect(devices.count == 2 * Set(devices.map { $0.replacingOccurrences(of: "-phone2", with: "") }).count, "\(day): \(devices)")
        }
        // The local date: 00:37 UTC on 28 July is the evening of the 27th at 122° W, and still the 28th in UTC.
        var leg = table.legs[0]
        leg.start = try #require(ISO8601.parse("2019-07-28T00:37:27Z"))
        leg.longitudeDegrees = -122.08
        #expect(LegCrossValidation.group(of: leg, .day) == "2019-07-27")
        leg.longitudeDegrees = nil
        #expect(LegCrossValidation.group(of: leg, .day) == "2019-07-28")
    }
}
