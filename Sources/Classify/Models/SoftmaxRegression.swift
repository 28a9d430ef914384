import CBLAS
import Foundation
import MobilityCore

/// Multinomial logistic regression on standardised features, trained and applied with
/// OpenBLAS: the class scores of all windows are one `dgemm` (X·W), and so is the gradient
/// (Xᵀ·(P − Y)). Training minimises the class-weighted cross-entropy plus an L2 penalty with
/// full-batch Adam for a fixed number of steps from a seeded start, so a given input and seed
/// always give the same model. Each window's loss is scaled by its sample weight
/// (`SampleWeights`); without them, class weights N / (K·N_c) make a rare mode count as much
/// as a common one.
public struct SoftmaxRegression: Codable, Hashable, Sendable {
    public var features: Int
    public var classes: Int
    /// (features + 1) × classes, row-major; the last row is the intercept.
    public var weights: [Double]

    public struct Training: Codable, Hashable, Sendable {
        /// L2 penalty per weight (intercepts excluded). Default 1e-3.
        public var l2 = 1e-3
        /// Full-batch Adam steps. Default 600.
        public var steps = 600
        /// Adam step size. Default 0.05.
        public var learningRate = 0.05
        /// Seed of the initial weights. Default 42.
        public var seed: UInt64 = 42

        public init() {}
    }

    /// Fits on `x` (rows × features, standardised, no NaN) and labels `y` in 0..<classes, each
    /// window weighted by `sampleWeights` (class-balanced when nil).
    public init(x: [Double], y: [Int], sampleWeights: [Double]? = nil, features: Int, classes: Int, training: Training = Training()) {
        self.features = features
        self.classes = classes
        let rows = y.count, d = features + 1
        let sampleWeights = sampleWeights ?? SampleWeights.balanced(groups: y)
        let design = Self.withIntercept(x, rows: rows, features: features)
        var generator = SeededGenerator(seed: training.seed)
        var w = (0..<(d * classes)).map { _ in (generator.nextUnit() - 0.5) * 0.02 }
        var optimizer = Adam(sizes: [w.count], learningRate: training.learningRate)
        var gradient = [Double](repeating: 0, count: w.count)
        for _ in 1...max(1, training.steps) {
            var residual = Self.probabilities(design: design, rows: rows, d: d, classes: classes, weights: w)
            for row in 0..<rows {
                let weight = sampleWeights[row] / Double(rows)
                residual[row * classes + y[row]] -= 1
                for c in 0..<classes { residual[row * classes + c] *= weight }
            }
            cblas_dgemm(
                CblasRowMajor, CblasTrans, CblasNoTrans, Int32(d), Int32(classes), Int32(rows),
                1, design, Int32(d), residual, Int32(classes), 0, &gradient, Int32(classes))
            for index in 0..<(features * classes) { gradient[index] += training.l2 * w[index] }
            optimizer.step(&w, gradient, slot: 0)
        }
        weights = w
    }

    /// Class probabilities, rows × classes, for standardised `x` (rows × features).
    public func probabilities(_ x: [Double], rows: Int) -> [Double] {
        Self.probabilities(
            design: Self.withIntercept(x, rows: rows, features: features), rows: rows,
            d: features + 1, classes: classes, weights: weights)
    }

    static func withIntercept(_ x: [Double], rows: Int, features: Int) -> [Double] {
        var design = [Double](repeating: 1, count: rows * (features + 1))
        for row in 0..<rows {
            for column in 0..<features { design[row * (features + 1) + column] = x[row * features + column] }
        }
        return design
    }

    static func probabilities(design: [Double], rows: Int, d: Int, classes: Int, weights: [Double]) -> [Double] {
        var scores = [Double](repeating: 0, count: rows * classes)
        guard rows > 0 else { return scores }
        cblas_dgemm(
            CblasRowMajor, CblasNoTrans, CblasNoTrans, Int32(rows), Int32(classes), Int32(d),
            1, design, Int32(d), weights, Int32(classes), 0, &scores, Int32(classes))
        Softmax.normalizeRows(&scores, rows: rows, classes: classes)
        return scores
    }
}
