/// The least and the most one unknown can be, given linear equalities over non-negative
/// unknowns: what an attacker who knows every published number and that counts are never
/// negative can say of a left-out cell (Hundepool et al., *Statistical Disclosure Control*,
/// 2012, §5.3.1: the "feasibility interval" a cell's protection levels are checked against).
///
/// A dense two-phase simplex with Bland's rule (no cycling). Written here, not taken from a
/// library: the systems are small (the unknown cells of one table, tens to a few hundred), no
/// maintained Swift package solves linear programs, and linking a C solver for this would be
/// the project's largest dependency for its smallest task.
struct FeasibleInterval {
    /// Each equality: (unknown, coefficient) terms summing to `value`.
    var equalities: [(terms: [(unknown: Int, coefficient: Double)], value: Double)]
    var unknowns: Int

    /// The interval of `unknown`; nil when the equalities have no non-negative solution (the
    /// numbers given contradict each other). The upper end is +∞ when unbounded.
    func interval(of unknown: Int) -> (lower: Double, upper: Double)? {
        guard var tableau = Tableau(self) else { return nil }
        var other = tableau
        let upper = tableau.maximise(unknown: unknown, sign: 1)
        let lower = -other.maximise(unknown: unknown, sign: -1)
        return (lower, upper)
    }

    static let tolerance = 1e-9

    /// A simplex tableau in one flat array: `rows` constraint rows and the reduced costs' row
    /// last, each `width` wide (the unknowns, then the right-hand side). Phase one's artificial
    /// columns are not stored: an artificial that leaves the basis never enters again, so only
    /// which rows still have theirs (`basis` < 0) is kept.
    struct Tableau {
        var values: [Double]
        /// Each row's basic unknown; −1 − row while the row's artificial is basic.
        var basis: [Int]
        let rows: Int, unknowns: Int, width: Int

        /// Phase one from the artificial basis; nil when no non-negative solution exists.
        init?(_ system: FeasibleInterval) {
            (rows, unknowns) = (system.equalities.count, system.unknowns)
            width = unknowns + 1
            values = [Double](repeating: 0, count: (rows + 1) * width)
            basis = (0..<rows).map { -1 - $0 }
            for (row, equality) in system.equalities.enumerated() {
                let flip: Double = equality.value < 0 ? -1 : 1
                for term in equality.terms { values[row * width + term.unknown] += flip * term.coefficient }
                values[row * width + unknowns] = flip * equality.value
            }
            // Maximise −Σ artificials: a column's reduced cost is its column's sum.
            let objective = rows * width
            for row in 0..<rows {
                for column in 0...unknowns { values[objective + column] += values[row * width + column] }
            }
            run()
            var left = 0.0
            for row in 0..<rows where basis[row] < 0 { left += values[row * width + unknowns] }
            guard left < 1e-7 else { return nil }
            // Artificials still in the basis (at zero) leave it where a real column can take their place.
            for row in 0..<rows where basis[row] < 0 {
                if let column = (0..<unknowns).first(where: { abs(values[row * width + $0]) > FeasibleInterval.tolerance }) {
                    pivot(row: row, column: column)
                }
            }
        }

        /// The most `sign × unknown` can be (+∞ when unbounded), phase two.
        mutating func maximise(unknown: Int, sign: Double) -> Double {
            let objective = rows * width
            for column in 0..<width { values[objective + column] = 0 }
            values[objective + unknown] = sign
            // Reduced costs c_j − c_B·column_j: only the row where `unknown` is basic counts.
            if let row = basis.firstIndex(of: unknown) {
                for column in 0..<width { values[objective + column] -= sign * values[row * width + column] }
                values[objective + unknown] = 0
            }
            guard run() else { return .infinity }
            guard let row = basis.firstIndex(of: unknown) else { return 0 }
            return sign * values[row * width + unknowns]
        }

        /// Pivots until no reduced cost is positive: the largest first (Dantzig), the lowest
        /// index first (Bland, which cannot cycle) after pivots that gained nothing. False when
        /// unbounded.
        @discardableResult
        mutating func run() -> Bool {
            let objective = rows * width
            var stalled = 0
            while true {
                var entering = -1, best = FeasibleInterval.tolerance
                for column in 0..<unknowns where values[objective + column] > best {
                    entering = column
                    if stalled > 20 { break }
                    best = values[objective + column]
                }
                guard entering >= 0 else { return true }
                var leaving = -1, ratio = Double.infinity
                for row in 0..<rows {
                    let a = values[row * width + entering]
                    guard a > FeasibleInterval.tolerance else { continue }
                    let r = values[row * width + unknowns] / a
                    if r < ratio - FeasibleInterval.tolerance
                        || (abs(r - ratio) <= FeasibleInterval.tolerance && basis[row] < basis[leaving])
                    {
                        (ratio, leaving) = (r, row)
                    }
                }
                guard leaving >= 0 else { return false }
                stalled = ratio <= FeasibleInterval.tolerance ? stalled + 1 : 0
                pivot(row: leaving, column: entering)
            }
        }

        mutating func pivot(row: Int, column: Int) {
            let start = row * width
            let scale = values[start + column]
            for j in 0..<width { values[start + j] /= scale }
            for r in 0...rows where r != row {
                let factor = values[r * width + column]
                guard factor != 0 else { continue }
                let other = r * width
                for j in 0..<width { values[other + j] -= factor * values[start + j] }
            }
            basis[row] = column
        }
    }
}
