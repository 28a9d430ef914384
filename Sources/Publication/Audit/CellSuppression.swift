import MobilityCore
/// Statistical disclosure control for an additive table published with its margins: which
/// cells to leave out so that no cell fewer than k persons made can be read, neither directly
/// nor by subtraction from the published cells, totals and margins.
///
/// The table is given as cells and the linear relations between them (each relation says a
/// set of cells, with signs, sums to zero: the cells of a group minus the group's total; the
/// groups' cells of one mode minus that mode's cell in the overall group). Primary suppression
/// leaves out the sensitive cells; then an audit finds every left-out cell whose exact value
/// still follows from the published ones (a cell is determined when its unit vector lies in the
/// row space of the relations restricted to the unknown cells: in reduced row echelon form, a
/// pivot column whose row has no free column), and for each such cell complementary cells are
/// left out (`complement(for:hidden:)`: the cheapest "rectangle" that puts it on a cycle of
/// relations, else the smallest published cell sharing a relation with it). The audit repeats
/// until nothing sensitive left out is determined. Rows are taken in the order given, so the
/// caller gives them in one canonical order. It is exact for subtraction (any combination of sums and
/// differences of published numbers); bounds from non-negativity are not hidden (a left-out
/// cell is known to lie between 0 and its margin), as in the modular methods statistics
/// offices use (Hundepool et al., *Statistical Disclosure Control*, Wiley 2012, §5.2–5.3).
///
/// Written here rather than taken from a library: no maintained Swift package does cell
/// suppression, and the tables are small (tens of relations, hundreds of cells), so the exact
/// audit costs milliseconds.
public struct CellSuppression: Sendable {
    /// One cell: whether it may be published at all (a group's total that is never printed is
    /// not: it is known only when a published cell of its group gives it away), whether its
    /// value must stay hidden when left out, and its size: its value or a multiple of it
    /// (complementary cells are taken smallest first, so the least information is lost). A cell
    /// of size 0 has the value 0, which non-negativity gives an attacker whether it is left out
    /// or not: it is never a complement, and counts as known.
    public struct Cell: Sendable, Equatable {
        public var publishable: Bool
        public var sensitive: Bool
        public var size: Double
        /// Its value, where `size` is a multiple of it (the feasible intervals are of values).
        public var value: Double
        /// How far below and above its value a sensitive cell's feasible interval must reach
        /// when left out (its protection levels; 0: none checked, as for a magnitude, whose rule
        /// is dominance). Below, the interval need reach no lower than 0.
        public var protection: Double
        /// Known to an attacker though this audit does not publish it: a number another table
        /// already published (the modal split's row a later table is audited against). It is
        /// never publishable, so never a complement; its value is a constant of the relations.
        public var known: Bool

        public init(
            publishable: Bool, sensitive: Bool, size: Double, value: Double? = nil, protection: Double = 0, known: Bool = false
        ) {
            (self.publishable, self.sensitive, self.size) = (publishable && !known, sensitive, size)
            (self.value, self.protection, self.known) = (value ?? size, protection, known)
        }
    }

    public var cells: [Cell]
    /// Each relation: (cell index, +1 or −1) terms that sum to zero.
    public var relations: [[(cell: Int, sign: Double)]]
    /// Cells that are known exactly when any cell of a set is published (a group's total, from a
    /// published cell's share): cell → the cells that give it away.
    public var revealedBy: [Int: [Int]]

    public init(cells: [Cell], relations: [[(cell: Int, sign: Double)]], revealedBy: [Int: [Int]] = [:]) {
        (self.cells, self.relations, self.revealedBy) = (cells, relations, revealedBy)
    }

    /// The publishable cells to leave out: every sensitive one, and the complementary ones the
    /// audit adds. Never-publishable cells are not in the set (they are never printed).
    public func suppressed() -> Set<Int> {
        protected() ?? Set(cells.indices.filter { cells[$0].publishable })
    }

    /// The publishable cells to leave out, starting from `initial` besides the sensitive ones;
    /// nil when some sensitive cell stays determined whatever is left out beside it (the caller
    /// then leaves out more: a whole sub-table, or everything).
    ///
    /// Once no sensitive cell is determined, each one with a protection level is checked
    /// against its feasible interval (`FeasibleInterval`: the least and the most it can be given
    /// every published cell and non-negativity); one whose interval does not reach its value ±
    /// its protection (0 below) takes the cheapest complement that makes it reach, else the one
    /// that widens it most; one no complement widens is left as it is (`narrow(hidden:)` counts
    /// them). Leaving out more only widens intervals, so a cell that passed stays passed.
    public func protected(initial: Set<Int> = []) -> Set<Int>? {
        var hidden = Set(cells.indices.filter { cells[$0].publishable && cells[$0].sensitive }).union(initial)
        var settled = Set<Int>()
        while true {
            let unknown = unknownCells(hidden)
            let exposed = determined(unknown).filter { cells[$0].sensitive }
            if let cell = exposed.min() {
                guard let complement = complement(for: cell, hidden: hidden), !complement.isSubset(of: hidden) else {
                    return nil
                }
                hidden.formUnion(complement)
                continue
            }
            guard let cell = checked(hidden).first(where: { !settled.contains($0) && !reaches($0, hidden: hidden) }) else {
                return hidden
            }
            settled.insert(cell)
            if let complement = widening(for: cell, hidden: hidden) { hidden.formUnion(complement) }
        }
    }

    /// The sensitive cells left out whose feasible interval does not reach their protection.
    public func narrow(hidden: Set<Int>) -> [Int] {
        checked(hidden).filter { !reaches($0, hidden: hidden) }
    }

    /// The left-out sensitive cells with a value and a protection level, in index order: those
    /// this audit left out, and the never-publishable ones with a protection level (a count
    /// another table left out, which this one must not bound either).
    func checked(_ hidden: Set<Int>) -> [Int] {
        cells.indices.filter {
            (hidden.contains($0) || (!cells[$0].publishable && !cells[$0].known)) && cells[$0].sensitive && cells[$0].protection > 0
                && cells[$0].value > 0 && cells[$0].size > 0
        }
    }

    /// Whether `cell`'s feasible interval reaches its value ± its protection (0 below).
    func reaches(_ cell: Int, hidden: Set<Int>) -> Bool {
        guard let interval = interval(of: cell, hidden: hidden) else { return true }
        return reaches(cell, interval)
    }

    func reaches(_ cell: Int, _ interval: (lower: Double, upper: Double)) -> Bool {
        let (value, protection) = (cells[cell].value, cells[cell].protection)
        return interval.upper >= value + protection - 1e-6 && interval.lower <= max(0, value - protection) + 1e-6
    }

    /// The least and the most `cell` can be with `hidden` left out; nil when it is published.
    func interval(of cell: Int, hidden: Set<Int>) -> (lower: Double, upper: Double)? {
        let unknown = unknownCells(hidden)
        let column = Dictionary(uniqueKeysWithValues: unknown.enumerated().map { ($1, $0) })
        guard column[cell] != nil else { return nil }
        // Only the relations reaching the cell through unknown cells bear on it.
        var relationsOf: [Int: [Int]] = [:]
        for (index, relation) in relations.enumerated() {
            for term in relation where column[term.cell] != nil { relationsOf[term.cell, default: []].append(index) }
        }
        var reached: Set<Int> = [cell], frontier = [cell], used = Set<Int>()
        while let member = frontier.popLast() {
            for relation in relationsOf[member] ?? [] where used.insert(relation).inserted {
                for term in relations[relation] where column[term.cell] != nil && reached.insert(term.cell).inserted {
                    frontier.append(term.cell)
                }
            }
        }
        let members = reached.sorted()
        let local = Dictionary(uniqueKeysWithValues: members.enumerated().map { ($1, $0) })
        let equalities = used.sorted().map { index in
            var terms: [(unknown: Int, coefficient: Double)] = [], value = 0.0
            for term in relations[index] {
                if let u = local[term.cell] { terms.append((u, term.sign)) } else { value -= term.sign * cells[term.cell].value }
            }
            return (terms: terms, value: value)
        }
        return FeasibleInterval(equalities: equalities, unknowns: members.count).interval(of: local[cell]!)
    }

    /// The complement that makes `cell`'s interval reach its protection, cheapest first (the
    /// options of `options(for:hidden:)`); else the one that widens it most; nil when none widens it.
    func widening(for cell: Int, hidden: Set<Int>) -> Set<Int>? {
        guard let before = interval(of: cell, hidden: hidden) else { return nil }
        var best: (option: Set<Int>, gain: Double)?
        var candidates = options(for: cell, hidden: hidden)
        // A cell with no published neighbour (a count another table left out, bounded through this
        // one's remainders) is widened by the published cells further along its relations.
        if candidates.count < Self.intervalOptions {
            let near = Set(candidates)
            for further in reachable(from: cell, hidden: hidden).prefix(Self.intervalOptions - candidates.count) {
                // With what keeps it from being worked out in its own relations (its row's trips less the rest).
                var option: Set<Int> = [further]
                if determined(unknownCells(hidden.union(option))).contains(further) {
                    option.formUnion(complement(for: further, hidden: hidden.union(option)) ?? [])
                }
                if !near.contains(option) { candidates.append(option) }
            }
        }
        for option in candidates.prefix(Self.intervalOptions) {
            guard let after = interval(of: cell, hidden: hidden.union(option)) else { return option }
            if reaches(cell, after) { return option }
            let gain = (after.upper - before.upper) + (before.lower - after.lower)
            if gain > 1e-6, gain > (best?.gain ?? 0) { best = (option, gain) }
        }
        return best?.option
    }

    /// How many complementary options a narrow cell tries: the cheapest ones, so the audit's
    /// cost stays that of a few linear programs per left-out cell.
    static let intervalOptions = 24

    /// The sensitive cells whose values follow from the published ones when `hidden` is left out.
    public func exposed(hidden: Set<Int>) -> [Int] {
        determined(unknownCells(hidden)).filter { cells[$0].sensitive }
    }

    /// Cells whose values are not published: the hidden ones, and the never-publishable ones no
    /// published cell gives away.
    func unknownCells(_ hidden: Set<Int>) -> [Int] {
        cells.indices.filter { index in
            // A cell of value 0 left out is known all the same: its margin, and non-negativity, give it.
            if cells[index].publishable { return hidden.contains(index) && cells[index].size > 0 }
            if cells[index].known { return false }
            return !(revealedBy[index] ?? []).contains { cells[$0].publishable && !hidden.contains($0) && cells[$0].size > 0 }
        }
    }

    /// The unknown cells whose values follow from the relations and the known cells.
    func determined(_ unknown: [Int]) -> [Int] {
        guard !unknown.isEmpty else { return [] }
        let column = Dictionary(uniqueKeysWithValues: unknown.enumerated().map { ($1, $0) })
        var rows: [[Double]] = relations.compactMap { relation in
            var row = [Double](repeating: 0, count: unknown.count), any = false
            for term in relation { if let c = column[term.cell] { row[c] += term.sign; any = true } }
            return any ? row : nil
        }
        // Reduced row echelon form with partial pivoting; entries stay small integers or simple fractions.
        var pivots: [Int] = [], rank = 0
        for c in 0..<unknown.count where rank < rows.count {
            guard let p = (rank..<rows.count).max(by: { abs(rows[$0][c]) < abs(rows[$1][c]) }), abs(rows[p][c]) > 1e-9 else { continue }
            rows.swapAt(rank, p)
            let scale = rows[rank][c]
            for j in 0..<unknown.count { rows[rank][j] /= scale }
            for r in rows.indices where r != rank && abs(rows[r][c]) > 1e-12 {
                let factor = rows[r][c]
                for j in 0..<unknown.count { rows[r][j] -= factor * rows[rank][j] }
            }
            pivots.append(c)
            rank += 1
        }
        let pivotSet = Set(pivots)
        return pivots.enumerated().compactMap { row, c in
            (0..<unknown.count).allSatisfy { $0 == c || pivotSet.contains($0) || abs(rows[row][$0]) < 1e-9 } ? unknown[c] : nil
        }
    }

    /// The cells to leave out beside `cell` so that it is no longer determined. For a publishable
    /// cell: the cheapest of the "rectangles" (two published cells each sharing a different
    /// relation with it and a fourth sharing a relation with both, so the four lie on a cycle of
    /// relations and none can be worked out) and the single published cells sharing a relation
    /// with it, tried cheapest first (cost: the sizes of the cells it would add) until the audit clears it;
    /// failing that, the smallest published cell sharing a relation with it. For a
    /// never-publishable cell (a group's total): every published cell of the group whose total
    /// is the smallest other one in a relation with it.
    func complement(for cell: Int, hidden: Set<Int>) -> Set<Int>? {
        let unknown = Set(unknownCells(hidden))
        var relationsOf: [Int: [Int]] = [:]
        for (index, relation) in relations.enumerated() { for term in relation { relationsOf[term.cell, default: []].append(index) } }
        let containing = relationsOf[cell] ?? []
        // A cell of value 0 hides nothing: an attacker bounds it by 0 from both sides.
        func open(_ index: Int) -> Bool { cells[index].publishable && !hidden.contains(index) && cells[index].size > 0 }
        if cells[cell].publishable {
            for option in options(for: cell, hidden: hidden) where !determined(unknownCells(hidden.union(option))).contains(cell) {
                return option
            }
        }
        let shared = containing.flatMap { relations[$0].map(\.cell) }
        if let smallest = Set(shared).subtracting([cell]).filter(open).min(by: { (cells[$0].size, $0) < (cells[$1].size, $1) }) {
            return [smallest]
        }
        let totals = Set(shared).subtracting([cell]).filter { !cells[$0].publishable && !unknown.contains($0) }
        if let total = totals.min(by: { (cells[$0].size, $0) < (cells[$1].size, $1) }) {
            let revealing = Set((revealedBy[total] ?? []).filter(open))
            if !revealing.isEmpty { return revealing }
        }
        return nearest(to: cell, relationsOf: relationsOf, unknown: unknown, open: open)
    }

    /// The complements that could take `cell` off a cycle of published relations, cheapest first
    /// (cost: the sizes of the cells each would add): the "rectangles" (two published cells each
    /// sharing a different relation with it and a fourth sharing a relation with both) and the
    /// single published cells sharing a relation with it.
    func options(for cell: Int, hidden: Set<Int>) -> [Set<Int>] {
        var relationsOf: [Int: [Int]] = [:]
        for (index, relation) in relations.enumerated() { for term in relation { relationsOf[term.cell, default: []].append(index) } }
        let containing = relationsOf[cell] ?? []
        func near(_ member: Int, except: Int) -> Set<Int> {
            Set((relationsOf[member] ?? []).filter { $0 != except }.flatMap { relations[$0].map(\.cell) })
        }
        func open(_ index: Int) -> Bool { cells[index].publishable && !hidden.contains(index) && cells[index].size > 0 }
        func cost(_ set: Set<Int>) -> Double { set.reduce(0) { $0 + cells[$1].size } }
        var options: [Set<Int>] = []
        for (i, first) in containing.enumerated() {
            for second in containing[(i + 1)...] {
                let aSide = relations[first].map(\.cell).filter { $0 != cell && cells[$0].publishable }
                let bSide = relations[second].map(\.cell).filter { $0 != cell && cells[$0].publishable }
                let nearB = Dictionary(bSide.map { ($0, near($0, except: second)) }, uniquingKeysWith: { first, _ in first })
                for a in aSide {
                    let nearA = near(a, except: first)
                    for b in bSide where a != b {
                        for d in nearA.intersection(nearB[b]!) where d != cell && d != a && d != b && cells[d].publishable {
                            let added = Set([a, b, d].filter(open))
                            if !added.isEmpty { options.append(added) }
                        }
                    }
                }
            }
        }
        // A single published cell sharing a relation with it is an option too, ranked by the
        // same cost: a cheap one that clears it loses fewer published trips than a dear rectangle.
        for relation in containing {
            for term in relations[relation] where term.cell != cell && open(term.cell) { options.append([term.cell]) }
        }
        let ranked = Set(options).map { ($0, cost($0), $0.sorted()) }
            .sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.2.lexicographicallyPrecedes($1.2) }
        return ranked.map(\.0)
    }

    /// The published cells connected to `cell` through left-out cells, nearest first (breadth-first
    /// over the relations), each ring smallest first.
    func reachable(from cell: Int, hidden: Set<Int>) -> [Int] {
        var relationsOf: [Int: [Int]] = [:]
        for (index, relation) in relations.enumerated() { for term in relation { relationsOf[term.cell, default: []].append(index) } }
        func open(_ index: Int) -> Bool { cells[index].publishable && !hidden.contains(index) && cells[index].size > 0 }
        let unknown = Set(unknownCells(hidden))
        var seen: Set<Int> = [cell], frontier = [cell], used = Set<Int>(), found: [Int] = []
        while !frontier.isEmpty {
            var next: [Int] = [], ring: [Int] = []
            for member in frontier {
                for relation in relationsOf[member] ?? [] where used.insert(relation).inserted {
                    for term in relations[relation] where seen.insert(term.cell).inserted {
                        if open(term.cell) { ring.append(term.cell) } else if unknown.contains(term.cell) { next.append(term.cell) }
                    }
                }
            }
            found += ring.sorted { (cells[$0].size, $0) < (cells[$1].size, $1) }
            frontier = next
        }
        return found
    }

    /// The smallest published cell nearest to `cell` through left-out cells: every cell around
    /// it is left out, yet it follows from published cells further away (a chain of relations
    /// through left-out cells ends in them), so the nearest of those goes. Breadth-first over the
    /// relations; nil when no published cell is connected to it at all.
    func nearest(to cell: Int, relationsOf: [Int: [Int]], unknown: Set<Int>, open: (Int) -> Bool) -> Set<Int>? {
        var seen: Set<Int> = [cell], frontier = [cell], usedRelations = Set<Int>()
        while !frontier.isEmpty {
            var next: [Int] = [], candidates: [Int] = []
            for member in frontier {
                for relation in relationsOf[member] ?? [] where usedRelations.insert(relation).inserted {
                    for term in relations[relation] where seen.insert(term.cell).inserted {
                        if open(term.cell) { candidates.append(term.cell) } else { next.append(term.cell) }
                    }
                }
            }
            if let smallest = candidates.min(by: { (cells[$0].size, $0) < (cells[$1].size, $1) }) { return [smallest] }
            frontier = next
        }
        return nil
    }
}
