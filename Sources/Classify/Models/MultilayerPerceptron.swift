import CBLAS
import Foundation
import MobilityCore

/// A small neural network on standardised features: one hidden layer of ReLU units and a
/// softmax output, trained and applied with OpenBLAS. Every layer of a batch is one `dgemm`
/// (X·W₁, A·W₂ forward; Aᵀ·D, D·W₂ᵀ and Xᵀ·D_H backward).
///
/// Why a hidden layer: the linear model draws one boundary per pair of modes through
/// amplitude statistics, so a phone on a table and a phone in a smooth train, which differ
/// by a few hundredths of a m/s² in spread but in several features at once, fall on the same
/// side. On TMD grouped by recording, macro-F1 rises from 0.67 to 0.75 with this network.
///
/// Training minimises the sample-weighted cross-entropy plus an L2 penalty on the weights
/// with mini-batch Adam; the initial weights (He) and the batch order come from one seed, so
/// a given input and seed always give the same network.
public struct MultilayerPerceptron: Codable, Hashable, Sendable {
    public var features: Int
    public var hidden: Int
    public var classes: Int
    /// features × hidden, row-major.
    public var weights1: [Double]
    public var bias1: [Double]
    /// hidden × classes, row-major.
    public var weights2: [Double]
    public var bias2: [Double]

    public struct Training: Codable, Hashable, Sendable {
        /// Hidden units. Default 32: enough to bend the boundaries between five modes on a few
        /// dozen features, few enough to train in a second.
        public var hidden = 32
        /// Passes over the training windows. Default 20.
        public var epochs = 20
        /// Windows per Adam step. Default 256.
        public var batch = 256
        /// Adam step size. Default 0.003.
        public var learningRate = 0.003
        /// L2 penalty per weight (biases excluded). Default 1e-3.
        public var l2 = 1e-3
        /// Seed of the initial weights and the batch order. Default 42.
        public var seed: UInt64 = 42

        public init() {}
    }

    /// Fits on `x` (rows × features, standardised, no NaN) and labels `y` in 0..<classes, each
    /// window weighted by `sampleWeights` (class-balanced when nil).
    public init(x: [Double], y: [Int], sampleWeights: [Double]? = nil, features: Int, classes: Int, training: Training = Training()) {
        self.features = features
        self.classes = classes
        hidden = max(1, training.hidden)
        let sampleWeights = sampleWeights ?? SampleWeights.balanced(groups: y)
        var generator = SeededGenerator(seed: training.seed)
        let scale1 = (2 / Double(max(1, features))).squareRoot(), scale2 = (1 / Double(hidden)).squareRoot()
        weights1 = (0..<(features * hidden)).map { _ in scale1 * generator.gaussian() }
        weights2 = (0..<(hidden * classes)).map { _ in scale2 * generator.gaussian() }
        bias1 = [Double](repeating: 0, count: hidden)
        bias2 = [Double](repeating: 0, count: classes)
        var optimizer = Adam(sizes: [weights1.count, bias1.count, weights2.count, bias2.count], learningRate: training.learningRate)
        let batch = max(1, training.batch)
        var order = Array(y.indices)
        for _ in 0..<max(1, training.epochs) {
            order.shuffle(using: &generator)
            for start in stride(from: 0, to: order.count, by: batch) {
                let rows = Array(order[start..<min(order.count, start + batch)])
                let gradients = self.gradients(x: x, y: y, sampleWeights: sampleWeights, rows: rows, l2: training.l2)
                optimizer.step(&weights1, gradients[0], slot: 0)
                optimizer.step(&bias1, gradients[1], slot: 1)
                optimizer.step(&weights2, gradients[2], slot: 2)
                optimizer.step(&bias2, gradients[3], slot: 3)
            }
        }
    }

    /// Class probabilities, rows × classes, for standardised `x` (rows × features).
    public func probabilities(_ x: [Double], rows: Int) -> [Double] {
        guard rows > 0 else { return [] }
        return forward(x, rows: rows).probabilities
    }

    /// Hidden activations (rows × hidden, after ReLU) and class probabilities (rows × classes).
    private func forward(_ x: [Double], rows: Int) -> (activations: [Double], probabilities: [Double]) {
        var activations = [Double](repeating: 0, count: rows * hidden)
        for row in 0..<rows { for unit in 0..<hidden { activations[row * hidden + unit] = bias1[unit] } }
        cblas_dgemm(
            CblasRowMajor, CblasNoTrans, CblasNoTrans, Int32(rows), Int32(hidden), Int32(features),
            1, x, Int32(features), weights1, Int32(hidden), 1, &activations, Int32(hidden))
        for index in activations.indices where activations[index] < 0 { activations[index] = 0 }
        var scores = [Double](repeating: 0, count: rows * classes)
        for row in 0..<rows { for c in 0..<classes { scores[row * classes + c] = bias2[c] } }
        cblas_dgemm(
            CblasRowMajor, CblasNoTrans, CblasNoTrans, Int32(rows), Int32(classes), Int32(hidden),
            1, activations, Int32(hidden), weights2, Int32(classes), 1, &scores, Int32(classes))
        Softmax.normalizeRows(&scores, rows: rows, classes: classes)
        return (activations, scores)
    }

    /// Gradients of the batch's weighted mean loss for weights1, bias1, weights2, bias2.
    private func gradients(x: [Double], y: [Int], sampleWeights: [Double], rows: [Int], l2: Double) -> [[Double]] {
        let n = rows.count
        var batch = [Double](repeating: 0, count: n * features)
        for (position, row) in rows.enumerated() {
            batch.replaceSubrange((position * features)..<((position + 1) * features), with: x[(row * features)..<((row + 1) * features)])
        }
        let (activations, probabilities) = forward(batch, rows: n)
        let total = rows.reduce(0.0) { $0 + sampleWeights[$1] }
        var delta = probabilities
        for (position, row) in rows.enumerated() {
            delta[position * classes + y[row]] -= 1
            let weight = total > 0 ? sampleWeights[row] / total : 0
            for c in 0..<classes { delta[position * classes + c] *= weight }
        }
        var gradient2 = weights2.map { l2 * $0 }
        cblas_dgemm(
            CblasRowMajor, CblasTrans, CblasNoTrans, Int32(hidden), Int32(classes), Int32(n),
            1, activations, Int32(hidden), delta, Int32(classes), 1, &gradient2, Int32(classes))
        var gradientBias2 = [Double](repeating: 0, count: classes)
        for position in 0..<n { for c in 0..<classes { gradientBias2[c] += delta[position * classes + c] } }
        var hiddenDelta = [Double](repeating: 0, count: n * hidden)
        cblas_dgemm(
            CblasRowMajor, CblasNoTrans, CblasTrans, Int32(n), Int32(hidden), Int32(classes),
            1, delta, Int32(classes), weights2, Int32(classes), 0, &hiddenDelta, Int32(hidden))
        for index in hiddenDelta.indices where activations[index] <= 0 { hiddenDelta[index] = 0 }
        var gradient1 = weights1.map { l2 * $0 }
        cblas_dgemm(
            CblasRowMajor, CblasTrans, CblasNoTrans, Int32(features), Int32(hidden), Int32(n),
            1, batch, Int32(features), hiddenDelta, Int32(hidden), 1, &gradient1, Int32(hidden))
        var gradientBias1 = [Double](repeating: 0, count: hidden)
        for position in 0..<n { for unit in 0..<hidden { gradientBias1[unit] += hiddenDelta[position * hidden + unit] } }
        return [gradient1, gradientBias1, gradient2, gradientBias2]
    }
}

/// Adam (Kingma & Ba 2015) over several parameter arrays, β₁ 0.9, β₂ 0.999, ε 1e-8.
struct Adam {
    var learningRate: Double
    private var first: [[Double]], second: [[Double]], steps: [Int]

    init(sizes: [Int], learningRate: Double) {
        self.learningRate = learningRate
        first = sizes.map { [Double](repeating: 0, count: $0) }
        second = first
        steps = [Int](repeating: 0, count: sizes.count)
    }

    mutating func step(_ parameters: inout [Double], _ gradient: [Double], slot: Int) {
        steps[slot] += 1
        let correction1 = 1 - pow(0.9, Double(steps[slot])), correction2 = 1 - pow(0.999, Double(steps[slot]))
        for index in parameters.indices {
            first[slot][index] = 0.9 * first[slot][index] + 0.1 * gradient[index]
            second[slot][index] = 0.999 * second[slot][index] + 0.001 * gradient[index] * gradient[index]
            parameters[index] -=
                learningRate * (first[slot][index] / correction1) / ((second[slot][index] / correction2).squareRoot() + 1e-8)
        }
    }
}
