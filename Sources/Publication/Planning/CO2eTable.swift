import MobilityCore
import Trips

/// CO2e of the panel's travel per home zone and main mode (`co2e.csv`): the trips of valid
/// person-days (`PlanningTrip`), their kilometres and CO2e (`EmissionFactors`), per resident's
/// valid person-day and, with weights, expanded to the population's average day.
///
/// A trip's CO2e is the sum of its legs' (`trips.csv` `co2e_g`) and counts to its main mode,
/// as in the mode shares; a trip with a leg no factor covers (a `vehicle` or unknown leg with
/// distance) has none and is counted in `tripsWithoutFactor` instead, never guessed. A person's
/// home zone is the zone of the layer their home lies in; `all` is every person, with or without
/// one, and `(no zone)` those without (both only when a layer is given; without one, `all` is the
/// only zone). Per person-day figures divide by the valid person-days of every resident of the
/// row's zone, travelling in that mode or not, so a zone's mode rows add up to its `all` row.
///
/// A row fewer than k distinct persons made is left out, and any row that would give it away by
/// subtraction (a zone's modes add up to its `all` row, the zones' rows of a mode to that mode's
/// `all` row): the audit of `CellSuppression`. A mode whose factor is 0 or missing (walking,
/// cycling, `vehicle`) has a CO2e anyone can guess as 0, so its rows count as known: a zone's
/// other modes' CO2e adds up to its `all` row without them: a second audit holds that relation.
///
/// Final energy (`PlanningTrip.energyMegajoules`, where the factors give it) is counted the same
/// way beside CO2e, with its own trips without a factor, and its own audit over the modes that
/// use energy (`EmissionFactors.usesNoEnergy`). A row with no trip of known energy has none
/// (empty, not 0): the factors gave no energy for its modes.
public struct CO2eTable: Sendable {
    /// The name of every person's zone, and of every trip's mode.
    public static let all = "all"
    /// The zone of persons whose home lies in no zone of the layer, or who have none.
    public static let noZone = "(no zone)"

    public struct Row: Sendable, Equatable {
        /// A zone id of the layer, `all` or `(no zone)`.
        public var zone: String
        /// A main mode's name, `unknown`, or `all`.
        public var mode: String
        public var persons: Int, trips: Int
        /// The row's trips' distance; nil where the dominance rule leaves it out (two persons
        /// make 85 % of it, `DominanceRule`), or beside such a row.
        public var distanceMeters: Double?
        /// CO2e of the row's trips that have one, grams; nil where the dominance rule leaves it
        /// out, or beside such a row.
        public var co2eGrams: Double?
        public var tripsWithoutFactor: Int
        /// Valid person-days of the zone's residents.
        public var personDays: Int
        /// The row's trips' CO2e expanded to the population's average day (each trip times its
        /// person's daily weight), grams; nil without weights.
        public var weightedGrams: Double?
        /// Final energy of the row's trips that have one, megajoules; nil where none has, or
        /// where the dominance rule leaves it out.
        public var energyMegajoules: Double?
        public var tripsWithoutEnergy: Int
        /// The row's trips' energy expanded to the population's average day; nil without
        /// weights or energy.
        public var weightedMegajoules: Double?
    }

    public var rows: [Row]
    public let minimumPersons: Int

    /// A person's CO2e over their valid person-days (`person_co2e.csv`, restricted).
    public struct PersonRow: Sendable, Equatable {
        public var person: String
        public var validDays: Int, trips: Int, tripsWithoutFactor: Int
        public var distanceMeters: Double, co2eGrams: Double
        /// Final energy of the trips that have one, megajoules; nil where none has.
        public var energyMegajoules: Double?
        public var tripsWithoutEnergy: Int
        /// CO2e per week: per valid person-day times 7; nil without a valid day.
        public var weeklyGrams: Double? { validDays > 0 ? co2eGrams / Double(validDays) * 7 : nil }
        /// Energy per week, the same way; nil without a valid day or energy.
        public var weeklyMegajoules: Double? { validDays > 0 ? energyMegajoules.map { $0 / Double(validDays) * 7 } : nil }
    }

    /// A row per person with valid person-days or trips, by name.
    public static func persons(_ trips: [PlanningTrip], validDays: [String: Int]) -> [PersonRow] {
        var byPerson: [String: [PlanningTrip]] = [:]
        for trip in trips { byPerson[trip.person, default: []].append(trip) }
        return Set(validDays.keys).union(byPerson.keys).sorted().map { person in
            let mine = byPerson[person] ?? []
            let energy = mine.compactMap(\.energyMegajoules)
            return PersonRow(
                person: person, validDays: validDays[person] ?? 0, trips: mine.count,
                tripsWithoutFactor: mine.filter { $0.co2eGrams == nil }.count,
                distanceMeters: mine.reduce(0) { $0 + $1.distanceMeters }, co2eGrams: mine.compactMap(\.co2eGrams).reduce(0, +),
                energyMegajoules: energy.isEmpty ? nil : energy.reduce(0, +), tripsWithoutEnergy: mine.count - energy.count)
        }
    }

    /// The main modes among `trips` that emit nothing by `factors`: a factor of 0, none, or no mode.
    public static func zeroModes(of trips: [PlanningTrip], factors: EmissionFactors) -> Set<String> {
        Set(trips.map(\.mainMode)).filter { name in factors.emitsNothing(Mode(rawValue: name)) }
    }

    /// The main modes among `trips` that count no energy by `factors`: 0 or none in every row.
    public static func zeroEnergyModes(of trips: [PlanningTrip], factors: EmissionFactors) -> Set<String> {
        Set(trips.map(\.mainMode)).filter { name in factors.usesNoEnergy(Mode(rawValue: name)) }
    }
    public private(set) var suppressedPrimary = 0, suppressedComplementary = 0
    /// The trips of the `all` zone's mode rows left out under k, and beside them: what the
    /// table loses of its trips (each trip is in one such row).
    public private(set) var suppressedTrips = 0, complementaryTrips = 0
    /// Published values of the weighted CO2e and energy left out: dominated (`DominanceRule`),
    /// and beside them.
    public private(set) var dominatedWeights = 0, complementaryWeights = 0
    /// Published rows whose unweighted distance, CO2e or energy the dominance rule leaves out
    /// (two persons make 85 % of it), and rows whose magnitudes are left out beside them.
    public private(set) var dominatedMagnitudes = 0, complementaryMagnitudes = 0
    /// Per published table, the margins (`all_day`) the `all` zone's mode rows were audited
    /// against its rows in (`SplitMargins`); empty when audited alone.
    public private(set) var auditedMargins: [String: [String]] = [:]
    /// Every home zone's row left out, since protecting them would have taken the `all` zone's.
    public private(set) var zoneRowsLeftOut = false
    /// The sub-table of the home zones' rows.
    static let homeZoneLayer = "home_zone"
    /// Trip counts under k left out (and the splits', where audited against them) whose
    /// feasible interval no complement widened to ±k.
    public private(set) var narrowCounts = 0

    /// `homeZones`: each person's home zone id; nil where no layer was given (one zone, `all`).
    /// `validDays`: each person's valid person-days.
    /// `zeroModes`: the modes whose trips emit nothing by the factors (`zeroModes(of:factors:)`);
    /// `zeroEnergyModes`: those that count no energy (`zeroEnergyModes(of:factors:)`; nil: the
    /// same as `zeroModes`).
    /// `margins`: published splits of the same trips (the mode shares', the modal split's), which
    /// the `all` zone's mode rows are audited against (`SplitMargins`).
    public init(
        _ trips: [PlanningTrip], validDays: [String: Int], homeZones: [String: String]?, zeroModes: Set<String> = [],
        zeroEnergyModes: Set<String>? = nil, minimumPersons: Int, margins: [SplitMargins] = []
    ) {
        let zeroEnergyModes = zeroEnergyModes ?? zeroModes
        self.minimumPersons = minimumPersons
        struct Key: Hashable { var zone: String, mode: String }
        func zones(of person: String) -> [String] {
            guard let homeZones else { return [Self.all] }
            return [Self.all, homeZones[person] ?? Self.noZone]
        }
        var groups: [Key: [PlanningTrip]] = [:]
        var personDays: [String: Int] = [:]
        for (person, days) in validDays { for zone in zones(of: person) { personDays[zone, default: 0] += days } }
        for trip in trips {
            for zone in zones(of: trip.person) {
                groups[Key(zone: zone, mode: trip.mainMode), default: []].append(trip)
                groups[Key(zone: zone, mode: Self.all), default: []].append(trip)
            }
        }
        // One canonical order for the audit: `all` first, then zones and modes by name.
        func order(_ name: String) -> (Int, String) { (name == Self.all ? 0 : 1, name) }
        let keys = groups.keys.sorted { a, b in
            let (za, zb, ma, mb) = (order(a.zone), order(b.zone), order(a.mode), order(b.mode))
            return za != zb ? za < zb : ma < mb
        }
        let index = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
        let persons = keys.map { Set(groups[$0]!.map(\.person)).count }
        let cells = keys.indices.map {
            CellSuppression.Cell(
                publishable: true, sensitive: persons[$0] < minimumPersons, size: Double(groups[keys[$0]]!.count),
                protection: Double(minimumPersons))
        }
        // Three audits, one per measure: the counts (trips, persons, distance) add up over every
        // mode; CO2e over the modes that emit, energy over those that use it. Leaving out more
        // never gives a cell away, so the union of what each leaves out holds for all.
        var counts: [[(cell: Int, sign: Double)]] = [], co2e: [[(cell: Int, sign: Double)]] = []
        var energy: [[(cell: Int, sign: Double)]] = []
        let zoneNames = Set(keys.map(\.zone)), modeNames = Set(keys.map(\.mode))
        for zone in zoneNames.sorted(by: { order($0) < order($1) }) {
            let total = (cell: index[Key(zone: zone, mode: Self.all)]!, sign: -1.0)
            let members = keys.filter { $0.zone == zone && $0.mode != Self.all }
            counts.append(members.map { (cell: index[$0]!, sign: 1.0) } + [total])
            co2e.append(members.filter { !zeroModes.contains($0.mode) }.map { (cell: index[$0]!, sign: 1.0) } + [total])
            energy.append(members.filter { !zeroEnergyModes.contains($0.mode) }.map { (cell: index[$0]!, sign: 1.0) } + [total])
        }
        if homeZones != nil {
            for mode in modeNames.sorted(by: { order($0) < order($1) }) {
                let members = keys.filter { $0.mode == mode && $0.zone != Self.all }.map { (cell: index[$0]!, sign: 1.0) }
                let relation = members + [(cell: index[Key(zone: Self.all, mode: mode)]!, sign: -1.0)]
                counts.append(relation)
                co2e.append(relation)
                energy.append(relation)
            }
        }
        // Two ways to protect the table, both audited in full, the one that leaves out fewer of the
        // whole panel's trips kept (the first on a tie): every row in one audit, or the home
        // zones' rows as a sub-table (`DisclosureAudit`), left out whole when they cannot be
        // protected without the `all` zone's rows (a panel of many home zones, few persons each).
        func audit(_ relations: [[(cell: Int, sign: Double)]], layered: Bool) -> DisclosureAudit {
            var audit = DisclosureAudit()
            for (cell, key) in zip(cells, keys) {
                _ = audit.add(cell, layer: layered && key.zone != Self.all ? Self.homeZoneLayer : nil)
            }
            for relation in relations { audit.relate(relation) }
            return audit
        }
        func protect(layered: Bool) -> (hidden: Set<Int>, narrow: Int, linked: [String: [String]], zonesLeftOut: Bool) {
            // The counts also against the splits published before: the `all` zone's mode rows are their whole day's.
            var countsAudit = audit(counts, layered: layered)
            var linked: [String: [String]] = [:]
            if let whole = index[Key(zone: Self.all, mode: Self.all)] {
                let modes = keys.indices.filter { keys[$0].zone == Self.all && keys[$0].mode != Self.all }
                let row = SplitMargins.LinkedRow(
                    band: TimeBands.allDay, total: whole, trips: groups[keys[whole]]!.count,
                    modes: Dictionary(uniqueKeysWithValues: modes.map { (keys[$0].mode, (cell: $0, trips: groups[keys[$0]]!.count)) }))
                linked = SplitMargins.link(
                    [row], to: margins, recoding: ModeRecoding(), k: minimumPersons, layer: Self.homeZoneLayer, into: &countsAudit)
            }
            let (countsHidden, countsDropped) = countsAudit.suppressed()
            let (co2eHidden, co2eDropped) = audit(co2e, layered: layered).suppressed()
            let (energyHidden, energyDropped) = zeroEnergyModes == zeroModes ? ([], []) : audit(energy, layered: layered).suppressed()
            let zonesLeftOut = (countsDropped + co2eDropped + energyDropped).contains(Self.homeZoneLayer)
            let hidden = countsHidden.filter { $0 < cells.count }.union(co2eHidden).union(energyHidden)
                .union(zonesLeftOut ? Set(keys.indices.filter { keys[$0].zone != Self.all }) : [])
            return (hidden, countsAudit.narrow(hidden: countsHidden).count, linked, zonesLeftOut)
        }
        func panelTripsLeftOut(_ hidden: Set<Int>) -> Int {
            hidden.filter { keys[$0].zone == Self.all && keys[$0].mode != Self.all }.reduce(0) { $0 + groups[keys[$1]]!.count }
        }
        let joint = protect(layered: false)
        let layered = homeZones == nil ? joint : protect(layered: true)
        let chosen = panelTripsLeftOut(layered.hidden) < panelTripsLeftOut(joint.hidden) ? layered : joint
        let hidden = chosen.hidden
        (narrowCounts, auditedMargins, zoneRowsLeftOut) = (chosen.narrow, chosen.linked, chosen.zonesLeftOut)
        for cell in hidden { if cells[cell].sensitive { suppressedPrimary += 1 } else { suppressedComplementary += 1 } }
        for cell in hidden where keys[cell].zone == Self.all && keys[cell].mode != Self.all {
            if cells[cell].sensitive {
                suppressedTrips += groups[keys[cell]]!.count
            } else {
                complementaryTrips += groups[keys[cell]]!.count
            }
        }
        // A magnitude of a row (its distance, CO2e or energy, and each expanded to a population):
        // the dominance rule on each person's part, then the same relations' audit from the rows
        // the counts left out (and, for a weighted value, from those its unweighted one left out).
        func leftOut(
            _ value: @escaping (PlanningTrip) -> Double, _ relations: [[(cell: Int, sign: Double)]], from initial: Set<Int>
        ) -> (left: Set<Int>, dominated: Set<Int>) {
            let magnitudeCells = keys.map { key in
                let members = groups[key]!
                return CellSuppression.Cell(
                    publishable: true,
                    sensitive: !DominanceRule.publishes(
                        DominanceRule.contributions(members, person: \.person, value: value), k: minimumPersons),
                    size: members.reduce(0) { $0 + value($1) })
            }
            let dominated = Set(keys.indices.filter { magnitudeCells[$0].sensitive && !hidden.contains($0) })
            guard !dominated.isEmpty || initial != hidden else { return (initial, []) }
            let audit = CellSuppression(cells: magnitudeCells, relations: relations)
            return (audit.protected(initial: initial) ?? Set(keys.indices), dominated)
        }
        let distance = leftOut({ $0.distanceMeters }, counts, from: hidden)
        let grams = leftOut({ $0.co2eGrams ?? 0 }, co2e, from: hidden)
        let megajoules = leftOut({ $0.energyMegajoules ?? 0 }, energy, from: hidden)
        for cell in keys.indices where !hidden.contains(cell) {
            let left = [distance, grams, megajoules].filter { $0.left.contains(cell) }
            if left.contains(where: { $0.dominated.contains(cell) }) {
                dominatedMagnitudes += 1
            } else if !left.isEmpty {
                complementaryMagnitudes += 1
            }
        }
        let hasWeights = trips.contains { $0.dailyWeight != nil }
        let weightedGrams =
            hasWeights ? leftOut({ ($0.co2eGrams ?? 0) * ($0.dailyWeight ?? 0) }, co2e, from: grams.left) : (left: hidden, dominated: [])
        let weightedMegajoules =
            hasWeights
            ? leftOut({ ($0.energyMegajoules ?? 0) * ($0.dailyWeight ?? 0) }, energy, from: megajoules.left) : (left: hidden, dominated: [])
        let (gramsLeftOut, megajoulesLeftOut) = (weightedGrams.left, weightedMegajoules.left)
        if hasWeights {
            for cell in keys.indices where !hidden.contains(cell) && (gramsLeftOut.contains(cell) || megajoulesLeftOut.contains(cell)) {
                if weightedGrams.dominated.contains(cell) || weightedMegajoules.dominated.contains(cell) {
                    dominatedWeights += 1
                } else {
                    complementaryWeights += 1
                }
            }
        }
        rows = keys.indices.filter { !hidden.contains($0) }.map { cell in
            let (key, members) = (keys[cell], groups[keys[cell]]!)
            let known = members.compactMap(\.co2eGrams)
            let energy = members.compactMap(\.energyMegajoules)
            let weighted = members.contains { $0.dailyWeight != nil }
            return Row(
                zone: key.zone, mode: key.mode, persons: persons[cell], trips: members.count,
                distanceMeters: distance.left.contains(cell) ? nil : members.reduce(0) { $0 + $1.distanceMeters },
                co2eGrams: grams.left.contains(cell) ? nil : known.reduce(0, +),
                tripsWithoutFactor: members.count - known.count, personDays: personDays[key.zone] ?? 0,
                weightedGrams: weighted && !gramsLeftOut.contains(cell)
                    ? members.reduce(0) { $0 + ($1.co2eGrams ?? 0) * ($1.dailyWeight ?? 0) } : nil,
                energyMegajoules: energy.isEmpty || megajoules.left.contains(cell) ? nil : energy.reduce(0, +),
                tripsWithoutEnergy: members.count - energy.count,
                weightedMegajoules: weighted && !energy.isEmpty && !megajoulesLeftOut.contains(cell)
                    ? members.reduce(0) { $0 + ($1.energyMegajoules ?? 0) * ($1.dailyWeight ?? 0) } : nil)
        }
    }
}
