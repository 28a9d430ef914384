import MobilityCore
@testable import Publication
import Testing

/// Cell suppression, checked against an audit written apart from it: a left-out cell can be
/// worked out by subtraction exactly when its unit vector lies in the span of the relations'
/// rows over the unknown cells. `CellSuppression` decides that by row reduction; the tests
/// decide it by projecting the unit vector on an orthonormal basis of the rows (modified
/// Gram–Schmidt), and by a witness: a second table that satisfies every relation, agrees on
/// every published cell and differs in the left-out one.
@Suite struct CellSuppressionTests {
    /// True when cell `u` of `unknown` follows from the relations (projection residual zero).
    static func recoverable(_ u: Int, unknown: [Int], relations: [[(cell: Int, sign: Double)]]) -> Bool {
        let column = Dictionary(uniqueKeysWithValues: unknown.enumerated().map { ($1, $0) })
        var basis: [[Double]] = []
        for relation in relations {
            var row = [Double](repeating: 0, count: unknown.count)
            for term in relation { if let c = column[term.cell] { row[c] += term.sign } }
            for b in basis {
                let dot = zip(row, b).reduce(0) { $0 + $1.0 * $1.1 }
                for j in row.indices { row[j] -= dot * b[j] }
            }
            let norm = row.reduce(0) { $0 + $1 * $1 }.squareRoot()
            if norm > 1e-9 { basis.append(row.map { $0 / norm }) }
        }
        var target = [Double](repeating: 0, count: unknown.count)
        target[column[u]!] = 1
        for b in basis {
            let dot = zip(target, b).reduce(0) { $0 + $1.0 * $1.1 }
            for j in target.indices { target[j] -= dot * b[j] }
        }
        return target.reduce(0) { $0 + $1 * $1 } < 1e-12
    }

    /// A rows × columns table with its row totals and column totals as never-published
    /// cells given away by any published cell of their line, and the grand total.
    static func table(_ sizes: [[Double]], sensitive: Set<[Int]>) -> (CellSuppression, index: (Int, Int) -> Int) {
        let rows = sizes.count, columns = sizes[0].count
        var cells: [CellSuppression.Cell] = []
        for r in 0..<rows {
            for c in 0..<columns { cells.append(.init(publishable: true, sensitive: sensitive.contains([r, c]), size: sizes[r][c])) }
        }
        let index = { (r: Int, c: Int) in r * columns + c }
        var relations: [[(cell: Int, sign: Double)]] = []
        var revealed: [Int: [Int]] = [:]
        for r in 0..<rows {
            revealed[cells.count] = (0..<columns).map { index(r, $0) }
            relations.append((0..<columns).map { (index(r, $0), 1.0) } + [(cells.count, -1.0)])
            cells.append(.init(publishable: false, sensitive: false, size: sizes[r].reduce(0, +)))
        }
        for c in 0..<columns {
            // Column totals are published (the "all" row of a modal split).
            relations.append((0..<rows).map { (index($0, c), 1.0) } + [(cells.count, -1.0)])
            cells.append(.init(publishable: true, sensitive: false, size: 1e9))
        }
        return (CellSuppression(cells: cells, relations: relations, revealedBy: revealed), index)
    }

    @Test func oneSensitiveCellIsHiddenInTheCheapestRectangle() {
        // Row 0 col 0 is one person's; the cheapest cycle through it is rows 0, 2 and columns 0, 1.
        let (suppression, index) = Self.table([[1, 5, 40], [30, 50, 60], [20, 2, 70]], sensitive: [[0, 0]])
        let hidden = suppression.suppressed()
        #expect(hidden == [index(0, 0), index(0, 1), index(2, 0), index(2, 1)], "\(hidden.sorted())")
    }

    @Test func noLeftOutCellCanBeWorkedOutOnTablesOfManyShapes() {
        var generator = SeededGenerator(seed: 2026)
        var checked = 0
        for trial in 0..<40 {
            let rows = 2 + trial % 4, columns = 2 + (trial / 4) % 4
            let sizes = (0..<rows).map { _ in (0..<columns).map { _ in Double(Int.random(in: 1...100, using: &generator)) } }
            var sensitive: Set<[Int]> = []
            for _ in 0..<(1 + trial % 3) {
                sensitive.insert([Int.random(in: 0..<rows, using: &generator), Int.random(in: 0..<columns, using: &generator)])
            }
            let (suppression, index) = Self.table(sizes, sensitive: sensitive)
            let hidden = suppression.suppressed()
            #expect(sensitive.allSatisfy { hidden.contains(index($0[0], $0[1])) }, "every sensitive cell is left out")
            let unknown = suppression.unknownCells(hidden)
            for cell in hidden where suppression.cells[cell].sensitive {
                #expect(
                    !Self.recoverable(cell, unknown: unknown, relations: suppression.relations),
                    "trial \(trial): cell \(cell) of \(sizes) can be worked out from the published ones (left out \(hidden.sorted()))")
                checked += 1
            }
        }
        #expect(checked >= 40)
    }
}
