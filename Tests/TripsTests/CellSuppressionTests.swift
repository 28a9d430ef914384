import MobilityCore
import Testing
@testable import Trips

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
        for r in 0..<rows { for c in 0..<columns { cells.append(.init(publishable: true, sensitive: sensitive.contains([r, c]), size: sizes[r][c])) } }
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
            for _ in 0..<(1 + trial % 3) { sensitive.insert([Int.random(in: 0..<rows, using: &generator), Int.random(in: 0..<columns, using: &generator)]) }
            let (suppression, index) = Self.table(sizes, sensitive: sensitive)
            let hidden = suppression.suppressed()
            #expect(sensitive.allSatisfy { hidden.contains(index($0[0], $0[1])) }, "every sensitive cell is left out")
            let unknown = suppression.unknownCells(hidden)
            for cell in hidden where suppression.cells[cell].sensitive {
                #expect(!Self.recoverable(cell, unknown: unknown, relations: suppression.relations),
                        "trial \(trial): cell \(cell) of \(sizes) can be worked out from the published ones (left out \(hidden.sorted()))")
                checked += 1
            }
        }
        #expect(checked >= 40)
    }

    /// The modal split's own relations: three groups of a dimension under "all", one mode of one
    /// person in one hour; nothing left out can be recovered, and what is published holds k.
    @Test func theModalSplitLeavesNoPersonRecoverable() {
        func total(_ dimension: String, _ key: String, _ mode: String, _ trips: Int, _ persons: Int) -> ModalTotal {
            ModalTotal(dimension: dimension, key: key, mode: mode, trips: trips, distanceMeters: Double(trips) * 1000,
                       durationSeconds: Double(trips) * 600, persons: persons)
        }
        let totals = [total("all", "all", "walk", 30, 9), total("all", "all", "car", 20, 6), total("all", "all", "bike", 1, 1),
                      total("hour", "07", "walk", 10, 5), total("hour", "07", "car", 12, 4), total("hour", "07", "bike", 1, 1),
                      total("hour", "08", "walk", 12, 6), total("hour", "08", "car", 5, 3),
                      total("hour", "17", "walk", 8, 4), total("hour", "17", "car", 3, 3)]
        let split = ModalSplit(totals: totals, minimumPersons: 3)
        #expect(split.rows.allSatisfy { $0.persons >= 3 } && !split.rows.contains { $0.mode == "bike" })
        #expect(split.suppressedPrimary == 2 && split.suppressedComplementary >= 2, "\(split.suppressedPrimary) \(split.suppressedComplementary)")
        // With the two bike rows gone, "all" walk and car still give the bike's share unless one of them goes too.
        let published = Set(split.rows.map { "\($0.dimension) \($0.key) \($0.mode)" })
        #expect(!(published.contains("all all walk") && published.contains("all all car")), "\(published.sorted())")
        #expect(!(published.contains("hour 07 walk") && published.contains("hour 07 car")), "\(published.sorted())")
        // The same rows whatever order the totals come in (a dictionary's, a distributed run's reducers').
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<10 {
            #expect(ModalSplit(totals: totals.shuffled(using: &generator), minimumPersons: 3).rows == split.rows)
        }
    }
}
