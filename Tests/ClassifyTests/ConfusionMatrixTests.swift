import Classify
import MobilityCore
import Testing

@Suite struct ConfusionMatrixTests {
    @Test func scoresAHandCountedExample() {
        // truth:     walk walk walk car car still
        // predicted: walk walk car  car walk still
        let matrix = ConfusionMatrix<Mode>(
            truth: [.walk, .walk, .walk, .car, .car, .still],
            predicted: [.walk, .walk, .car, .car, .walk, .still])
        #expect(matrix.total == 6 && abs(matrix.accuracy - 4.0 / 6) < 1e-12)
        let walk = matrix.scores(for: .walk)
        #expect(abs(walk.precision - 2.0 / 3) < 1e-12 && abs(walk.recall - 2.0 / 3) < 1e-12 && walk.support == 3)
        let car = matrix.scores(for: .car)
        #expect(car.precision == 0.5 && car.recall == 0.5 && car.f1 == 0.5)
        #expect(matrix.scores(for: .still).f1 == 1)
        #expect(abs(matrix.macroF1 - (2.0 / 3 + 0.5 + 1) / 3) < 1e-12)
        #expect(matrix.labels == [.still, .walk, .car])
        #expect(matrix.count(truth: .walk, predicted: .car) == 1)
    }

    @Test func aClassOnlyPredictedLowersPrecisionNotMacroF1Support() {
        let matrix = ConfusionMatrix<Mode>(truth: [.walk, .walk], predicted: [.walk, .bike])
        #expect(matrix.scores(for: .bike).support == 0 && matrix.scores(for: .bike).precision == 0)
        #expect(abs(matrix.macroF1 - matrix.scores(for: .walk).f1) < 1e-12)
    }

    @Test func emptyMatrixScoresZero() {
        let matrix = ConfusionMatrix<Mode>()
        #expect(matrix.accuracy == 0 && matrix.macroF1 == 0 && matrix.total == 0)
    }
}
