@testable import Classify
import Foundation
import MobilityCore
import TestSupport
import Testing

@Suite struct MultilayerPerceptronTests {
    /// The same network evaluated by plain loops, as a reference for the BLAS path.
    func reference(_ network: MultilayerPerceptron, _ x: [Double], rows: Int) -> [Double] {
        var result: [Double] = []
        for row in 0..<rows {
            let hidden = (0..<network.hidden).map { unit in
                max(
                    0,
                    network.bias1[unit]
                        + (0..<network.features).reduce(0.0) {
                            $0 + x[row * network.features + $1] * network.weights1[$1 * network.hidden + unit]
                        })
            }
            let scores = (0..<network.classes).map { c in
                network.bias2[c] + (0..<network.hidden).reduce(0.0) { $0 + hidden[$1] * network.weights2[$1 * network.classes + c] }
            }
            let top = scores.max()!, exps = scores.map { exp($0 - top) }, total = exps.reduce(0, +)
            result += exps.map { $0 / total }
        }
        return result
    }

    @Test func blasForwardPassMatchesPlainLoops() {
        var generator = SeededGenerator(seed: 3)
        let x = (0..<(5 * 3)).map { _ in generator.gaussian() }
        var training = MultilayerPerceptron.Training()
        training.hidden = 4
        training.epochs = 3
        let network = MultilayerPerceptron(x: x, y: [0, 1, 2, 0, 1], features: 3, classes: 3, training: training)
        let blas = network.probabilities(x, rows: 5), plain = reference(network, x, rows: 5)
        #expect(blas.count == 15 && zip(blas, plain).allSatisfy { abs($0 - $1) < 1e-12 })
        #expect(network.probabilities([], rows: 0).isEmpty)
    }

    /// XOR: no straight line separates the classes, one hidden layer does.
    @Test func itLearnsABoundaryALinearModelCannotDraw() {
        var generator = SeededGenerator(seed: 5)
        var x: [Double] = [], y: [Int] = []
        for _ in 0..<400 {
            let (a, b) = (generator.uniform(-1...1), generator.uniform(-1...1))
            guard abs(a) > 0.1, abs(b) > 0.1 else { continue }
            x += [a, b]
            y.append(a * b > 0 ? 0 : 1)
        }
        var training = MultilayerPerceptron.Training()
        training.epochs = 200
        training.learningRate = 0.01
        training.l2 = 0
        let network = MultilayerPerceptron(x: x, y: y, features: 2, classes: 2, training: training)
        let p = network.probabilities(x, rows: y.count)
        let right = y.indices.filter { (p[2 * $0 + 1] > 0.5 ? 1 : 0) == y[$0] }.count
        #expect(Double(right) >= 0.95 * Double(y.count), "\(right) of \(y.count)")
        var linear = SoftmaxRegression.Training()
        linear.steps = 600
        let regression = SoftmaxRegression(x: x, y: y, features: 2, classes: 2, training: linear)
        let q = regression.probabilities(x, rows: y.count)
        let linearRight = y.indices.filter { (q[2 * $0 + 1] > 0.5 ? 1 : 0) == y[$0] }.count
        #expect(Double(linearRight) < 0.75 * Double(y.count), "the linear model got \(linearRight) of \(y.count)")
    }

    @Test func aVersionOneLogisticRegressionFileStillLoads() throws {
        let folder = try TemporaryFolder()
        var trainer = ModeTrainer()
        trainer.kind = .softmaxRegression
        let model = try trainer.train(
            SyntheticWindows.table(devices: ["a"], secondsPerMode: 30), window: .init(), provenance: SyntheticWindows.provenance)
        #expect(model.regression != nil && model.network == nil)
        let path = folder.path + "/v1.json"
        try model.save(path: path)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: "\"format_version\" : 3", with: "\"format_version\" : 1").write(
            toFile: path, atomically: true, encoding: .utf8)
        let loaded = try ModeModel.load(path: path)
        #expect(loaded.kind == .softmaxRegression && loaded.regression == model.regression && loaded.formatVersion == 1)
        let test = SyntheticWindows.table(devices: ["b"], secondsPerMode: 30)
        let prediction = ModePredictor(model: loaded).predict(test)
        #expect(ConfusionMatrix(truth: test.windows.map { $0.mode! }, predicted: prediction.modes).macroF1 > 0.9)
        try text.replacingOccurrences(of: "\"format_version\" : 3", with: "\"format_version\" : 4").write(
            toFile: path, atomically: true, encoding: .utf8)
        let error = #expect(throws: PipelineError.self) { try ModeModel.load(path: path) }
        #expect(error?.code == .modelUnreadable && error?.message.contains("version 4") == true)
    }
}
