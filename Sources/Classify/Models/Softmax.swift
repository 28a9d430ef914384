import Foundation

/// Class scores to probabilities, row by row: exp(s − max) / Σ exp(s − max), which cannot
/// overflow. Shared by the logistic regression and the network's output layer.
enum Softmax {
    /// Turns `scores` (rows × classes, row-major) into probabilities in place.
    static func normalizeRows(_ scores: inout [Double], rows: Int, classes: Int) {
        for row in 0..<rows {
            let slice = (row * classes)..<((row + 1) * classes)
            let top = scores[slice].max()!
            var total = 0.0
            for index in slice { scores[index] = exp(scores[index] - top); total += scores[index] }
            for index in slice { scores[index] /= total }
        }
    }
}
