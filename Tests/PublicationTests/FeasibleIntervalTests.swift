@testable import Publication
import Testing

/// `FeasibleInterval` on systems whose least and most are worked out by hand, and the
/// protection levels `CellSuppression` checks with it.
@Suite struct FeasibleIntervalTests {
    static func system(_ rows: [([(Int, Double)], Double)], unknowns: Int) -> FeasibleInterval {
        FeasibleInterval(equalities: rows.map { (terms: $0.0.map { (unknown: $0.0, coefficient: $0.1) }, value: $0.1) }, unknowns: unknowns)
    }

    @Test func aSumBoundsEachPartByZeroAndTheSum() throws {
        // x + y = 5.
        let interval = try #require(Self.system([([(0, 1), (1, 1)], 5)], unknowns: 2).interval(of: 0))
        #expect(abs(interval.lower) < 1e-9 && abs(interval.upper - 5) < 1e-9)
    }

    @Test func aTwoByTwoTableWithItsMarginsBoundsACornerFromBothSides() throws {
        // a + b = 3, c + d = 4, a + c = 5, b + d = 2: a ≥ 5 − 4 = 1 (c ≤ 4) and a ≤ 3 (b ≥ 0).
        let table = Self.system(
            [([(0, 1), (1, 1)], 3), ([(2, 1), (3, 1)], 4), ([(0, 1), (2, 1)], 5), ([(1, 1), (3, 1)], 2)], unknowns: 4)
        let a = try #require(table.interval(of: 0)), d = try #require(table.interval(of: 3))
        #expect(abs(a.lower - 1) < 1e-9 && abs(a.upper - 3) < 1e-9)
        #expect(abs(d.lower - 0) < 1e-9 && abs(d.upper - 2) < 1e-9) // d = 2 − b, b ∈ [0, 2]
    }

    @Test func aDifferenceLeavesTheUpperEndOpenAndAContradictionHasNoInterval() throws {
        // x − y = 2: x ≥ 2, as large as y.
        let open = try #require(Self.system([([(0, 1), (1, -1)], 2)], unknowns: 2).interval(of: 0))
        #expect(abs(open.lower - 2) < 1e-9 && open.upper == .infinity)
        // x + y = −1 has no non-negative solution.
        #expect(Self.system([([(0, 1), (1, 1)], -1)], unknowns: 2).interval(of: 0) == nil)
        // x = 4 given twice (a redundant row) is still x = 4.
        let twice = try #require(Self.system([([(0, 1)], 4), ([(0, 1)], 4), ([(0, 1), (1, 1)], 6)], unknowns: 2).interval(of: 0))
        #expect(abs(twice.lower - 4) < 1e-9 && abs(twice.upper - 4) < 1e-9)
    }

    /// One group of four cells with its total published: 1 (one person's, k = 3), 2, 10, 20 and
    /// 33. Subtraction alone is stopped by leaving out the 2 beside the 1, but then the 1 lies in
    /// [0, 3], short of 1 + 3: the protection level takes the next cheapest, the 10, and the 1
    /// lies in [0, 13].
    @Test func aLeftOutCellWhoseIntervalIsNarrowerThanItsProtectionTakesAnotherComplement() throws {
        func cells(protection: Double) -> [CellSuppression.Cell] {
            [1.0, 2, 10, 20].enumerated().map {
                CellSuppression.Cell(publishable: true, sensitive: $0.offset == 0, size: $0.element, protection: protection)
            } + [CellSuppression.Cell(publishable: true, sensitive: false, size: 33)]
        }
        let relations: [[(cell: Int, sign: Double)]] = [[(0, 1), (1, 1), (2, 1), (3, 1), (4, -1)]]
        let exact = CellSuppression(cells: cells(protection: 0), relations: relations)
        #expect(exact.suppressed() == [0, 1])
        let protected = CellSuppression(cells: cells(protection: 3), relations: relations)
        let hidden = protected.suppressed()
        #expect(hidden == [0, 1, 2])
        let interval = try #require(protected.interval(of: 0, hidden: hidden))
        #expect(abs(interval.lower) < 1e-9 && abs(interval.upper - 13) < 1e-9)
        #expect(protected.narrow(hidden: hidden).isEmpty && protected.narrow(hidden: [0, 1]) == [0])
    }

    /// A cell no complement can widen (its group holds nothing more to leave out) is left as it
    /// is and counted as narrow, not hidden with everything.
    @Test func aCellNothingCanWidenIsCountedNarrow() {
        let cells = [
            CellSuppression.Cell(publishable: true, sensitive: true, size: 1, protection: 3),
            CellSuppression.Cell(publishable: true, sensitive: false, size: 2, protection: 3),
            CellSuppression.Cell(publishable: false, sensitive: false, size: 3),
            CellSuppression.Cell(publishable: true, sensitive: false, size: 5)
        ]
        // The group's whole (3) is never printed but known from a cell in no relation (a share elsewhere).
        let audit = CellSuppression(cells: cells, relations: [[(0, 1), (1, 1), (2, -1)]], revealedBy: [2: [3]])
        let hidden = audit.suppressed()
        #expect(hidden == [0, 1] && audit.narrow(hidden: hidden) == [0])
    }
}
