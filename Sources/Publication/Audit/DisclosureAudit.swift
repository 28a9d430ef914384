import Trips

/// One system of cells and linear relations over the tables published together, built by each
/// table adding its own cells and relations and then the relations between tables (a mode's
/// trips in the OD rows add up to its trips in the modal split), and audited once
/// (`CellSuppression`): a cell left out of one table cannot be read from another. Statistics
/// offices audit a release's linked tables together for the same reason (Hundepool et al.,
/// *Statistical Disclosure Control*, 2012, §5.4, "linked tables").
public struct DisclosureAudit: Sendable {
    public private(set) var cells: [CellSuppression.Cell] = []
    public private(set) var relations: [[(cell: Int, sign: Double)]] = []
    public private(set) var revealedBy: [Int: [Int]] = [:]
    /// Each cell's sub-table: nil for the base (the tables' whole-day rows, which every
    /// sub-table's margins are), else a name (`hour`, `weekday` …).
    public private(set) var layers: [String?] = []

    public init() {}

    /// Adds a cell of the base, or of the sub-table `layer`; returns its index.
    public mutating func add(_ cell: CellSuppression.Cell, layer: String? = nil) -> Int {
        cells.append(cell)
        layers.append(layer)
        return cells.count - 1
    }

    /// Sets what a cell is: the same cells and relations audited for another measure of theirs
    /// (a weighted value, sensitive by the dominance rule) take their own sensitivity and size,
    /// which is their value; a magnitude's rule is dominance, so no protection interval.
    public mutating func set(_ cell: Int, sensitive: Bool, size: Double) {
        (cells[cell].sensitive, cells[cell].size, cells[cell].value, cells[cell].protection) = (sensitive, size, size, 0)
    }

    /// Adds a relation: the terms sum to zero.
    public mutating func relate(_ terms: [(cell: Int, sign: Double)]) {
        if terms.count > 1 { relations.append(terms) }
    }

    /// A never-published cell that is known once any of `cells` is published (a group's whole,
    /// from a published share).
    public mutating func reveal(_ cell: Int, by cells: [Int]) { revealedBy[cell] = cells }

    /// The cells to leave out, and the sub-tables left out whole.
    ///
    /// The base is protected first, on its own. Then each sub-table (in name order) with the
    /// base beside it: its own cells are left out as the audit needs, but when protecting it
    /// would take a base cell the base's audit left in, or cannot be done, the whole sub-table is
    /// left out instead (its margins, the base, stay): a sparse breakdown (the hour of day on a
    /// small panel) must not take the whole-day rows with it. A last audit of every cell together
    /// (but those of the sub-tables left out whole, which are not published at all, not even
    /// which cells they have) checks the union (sub-tables share the base's left-out cells);
    /// should it find a cell determined, it leaves out more from there
    /// (`CellSuppression.protected(initial:)`).
    ///
    /// `initial`: cells to leave out from the start (another measure's audit of the same rows
    /// left them out, so this one takes the same complements where they do).
    public func suppressed(initial: Set<Int> = []) -> (hidden: Set<Int>, droppedLayers: [String]) {
        let whole = CellSuppression(cells: cells, relations: relations, revealedBy: revealedBy)
        let names = Set(layers.compactMap { $0 }).sorted()
        guard !names.isEmpty else {
            return (whole.protected(initial: initial) ?? Set(cells.indices.filter { cells[$0].publishable }), [])
        }
        let base = Set(cells.indices.filter { layers[$0] == nil })
        var hidden = part(base, initial: initial.intersection(base)) ?? Set(base.filter { cells[$0].publishable })
        var dropped: [String] = []
        for name in names {
            let own = Set(cells.indices.filter { layers[$0] == name })
            let sub = part(base.union(own), initial: hidden.intersection(base).union(initial.intersection(own)))
            if let found = sub, found.intersection(base).isSubset(of: hidden) {
                hidden.formUnion(found.intersection(own))
            } else {
                hidden.formUnion(own.filter { cells[$0].publishable })
                dropped.append(name)
            }
        }
        // A sub-table left out whole is not published at all, not even which cells it has: the
        // last audit is of the rest.
        let kept = Set(cells.indices.filter { layers[$0].map { !dropped.contains($0) } ?? true })
        if !isProtected(kept, hidden: hidden) {
            hidden = (part(kept, initial: hidden.intersection(kept)) ?? Set(kept.filter { cells[$0].publishable }))
                .union(hidden.subtracting(kept))
        }
        return (hidden, dropped)
    }

    /// The sensitive cells left out whose feasible interval, over every cell, does not reach
    /// their protection (`CellSuppression.narrow(hidden:)`): none widened it.
    public func narrow(hidden: Set<Int>) -> [Int] {
        CellSuppression(cells: cells, relations: relations, revealedBy: revealedBy).narrow(hidden: hidden)
    }

    /// Whether no sensitive cell of `members` follows from the published ones among them.
    private func isProtected(_ members: Set<Int>, hidden: Set<Int>) -> Bool {
        let (suppression, _, index) = restricted(to: members)
        return suppression.exposed(hidden: Set(hidden.compactMap { index[$0] })).isEmpty
    }

    /// The audit of `members` alone (relations wholly among them), from `initial`: the cells it
    /// leaves out, in this audit's indices; nil when it cannot protect them.
    private func part(_ members: Set<Int>, initial: Set<Int> = []) -> Set<Int>? {
        let (suppression, order, index) = restricted(to: members)
        return suppression.protected(initial: Set(initial.compactMap { index[$0] })).map { Set($0.map { order[$0] }) }
    }

    /// The cells of `members` and the relations wholly among them, as a suppression of their own;
    /// with `members` in its order, and each one's index in it.
    private func restricted(to members: Set<Int>) -> (CellSuppression, order: [Int], index: [Int: Int]) {
        let order = members.sorted()
        let index = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
        let kept = relations.filter { $0.allSatisfy { index[$0.cell] != nil } }.map { $0.map { (cell: index[$0.cell]!, sign: $0.sign) } }
        var revealed: [Int: [Int]] = [:]
        for (cell, by) in revealedBy { if let c = index[cell] { revealed[c] = by.compactMap { index[$0] } } }
        return (CellSuppression(cells: order.map { cells[$0] }, relations: kept, revealedBy: revealed), order, index)
    }
}

/// `Mode` order, then `unknown`, then `other`: the order of every table's modes.
public func publishedModeRank(_ name: String) -> Int {
    name == ModeRecoding.other ? modeRank(unknownModeName) + 1 : modeRank(name)
}
