import MobilityCore

/// Expansion weights from a panel to the population it was drawn from: each person stands for
/// the residents of their home zone, raked to the population's margins.
///
/// A person counts when their home lies in a zone of the population table, they have a valid
/// person-day, and they have a category of every margin's variable; the others get no weight,
/// and the reason is counted. The start weight of a person is their home zone's population
/// over the persons sampled there. Raking (iterative proportional fitting; Deming & Stephan,
/// "On a least squares adjustment of a sampled frequency table when the expected marginal
/// totals are known", *Annals of Mathematical Statistics* 11, 1940) then scales the weights of
/// each margin's categories in turn (home zones, then each attribute such as age band or car
/// ownership) until every margin is met within `tolerance`, or `maximumIterations` cycles have
/// run; both are reported.
///
/// An attribute's margins are for the whole population; they are scaled to the population of
/// the zones the panel represents (zones without a sampled person cannot be represented, and
/// are listed). A category no sampled person has cannot be met: it is left out, and its
/// population goes to the others of its variable (reported).
///
/// A person's trips are expanded per valid day: `dailyWeight` is the weight over their valid
/// person-days, so weighted trips are the population's trips on an average day.
///
/// A weight is implausible (`implausible`) when it is more than `medianMultiple` times the
/// median weight, the trimming bound of Potter ("A study of procedures to identify and trim
/// extreme sampling weights", *Proceedings of the Survey Research Methods Section*, American
/// Statistical Association, 1990: weights above a multiple of the median, 3.5 to 5 in
/// practice; 5 here, the lenient end), or when the person alone stands for more than
/// `populationShare` (half) of the residents the panel represents: a panel in which one person
/// is most of the population represents no population, and the median cannot say so when
/// there are one or two weights (one weighted person is all of a district). Such weights are kept, not trimmed (the
/// estimates stay those of the weights raked to the margins); they are named for the operator,
/// and the dominance rule keeps a value they make most of from being published.
public struct ExpansionWeights: Sendable {
    public struct Person: Sendable {
        public var person: String
        /// The zone their home lies in; nil without a home, or with one in no zone (`hasHome` says which).
        public var homeZone: String?
        public var hasHome: Bool
        public var validDays: Int
        /// Category per margin variable (`age_band`: `30-44`).
        public var attributes: [String: String]
        public init(person: String, homeZone: String?, hasHome: Bool? = nil, validDays: Int, attributes: [String: String] = [:]) {
            (self.person, self.homeZone, self.validDays, self.attributes) = (person, homeZone, validDays, attributes)
            self.hasHome = hasHome ?? (homeZone != nil)
        }
    }

    /// Weight per weighted person, and per valid day.
    public var weights: [String: Double] = [:], dailyWeights: [String: Double] = [:]
    /// Persons without a weight, by reason (`no home`, `home outside the population's zones`,
    /// `no valid person-day`, `no <variable>`).
    public var unweighted: [String: Int] = [:]

    /// Whether anyone was weighted: without, the tables are not weighted at all (weighted
    /// columns of 0 would read as a population that makes no trip).
    public var weightsAnyone: Bool { weights.values.contains { $0 > 0 } }
    public var iterations = 0
    public var converged = false
    /// The largest relative difference between a margin and its weighted sum after raking.
    public var largestMarginError = 0.0
    /// The population of the zones with a sampled person, of all zones, and the zones without one.
    public var representedPopulation = 0.0, population = 0.0
    public var zonesWithoutSample: [String] = []
    /// Categories no sampled person has (`variable=category`), left out of raking.
    public var categoriesWithoutSample: [String] = []

    /// A weight above this multiple of the median weight is implausible. Default 5.
    public static let medianMultiple = 5.0
    /// A weight above this share of the represented population is implausible. Default 0.5.
    public static let populationShare = 0.5

    /// Why a person's weight is implausible, by person (`weights`' persons only).
    public var implausible: [String: String] = [:]

    /// Raking stops when every margin is met within this share. Default 1e-6.
    public static let tolerance = 1e-6
    /// Raking stops after this many cycles over the margins at most. Default 100.
    public static let maximumIterations = 100

    /// Why `person` gets no weight, or nil when they get one.
    public static func reason(for person: Person, zonePopulation: [String: Double], margins: [String: [String: Double]]) -> String? {
        guard let zone = person.homeZone else { return person.hasHome ? "home in no zone of the layer" : "no home" }
        guard zonePopulation[zone] != nil else { return "home outside the population's zones" }
        guard person.validDays > 0 else { return "no valid person-day" }
        let missing = margins.keys.sorted().first { variable in person.attributes[variable].flatMap { margins[variable]![$0] } == nil }
        return missing.map { "no \($0) of the margins" }
    }

    /// `zonePopulation`: residents per zone id; `margins`: per variable, residents per category.
    public init(persons: [Person], zonePopulation: [String: Double], margins: [String: [String: Double]] = [:]) {
        population = zonePopulation.values.reduce(0, +)
        var eligible: [Person] = []
        for person in persons.sorted(by: { $0.person < $1.person }) {
            if let reason = Self.reason(for: person, zonePopulation: zonePopulation, margins: margins) {
                unweighted[reason, default: 0] += 1
            } else {
                eligible.append(person)
            }
        }
        guard !eligible.isEmpty else { return }
        let sampledZones = Set(eligible.compactMap(\.homeZone))
        zonesWithoutSample = zonePopulation.keys.filter { !sampledZones.contains($0) }.sorted()
        representedPopulation = sampledZones.reduce(0) { $0 + zonePopulation[$1]! }
        // Constraints: (the persons in a category, its target), zones first, then each variable.
        var constraints: [[(members: [Int], target: Double)]] = []
        let byZone = Dictionary(grouping: eligible.indices, by: { eligible[$0].homeZone! })
        constraints.append(byZone.keys.sorted().map { (byZone[$0]!, zonePopulation[$0]!) })
        for variable in margins.keys.sorted() {
            let categories = margins[variable]!
            let members = Dictionary(grouping: eligible.indices, by: { eligible[$0].attributes[variable]! })
            categoriesWithoutSample += categories.keys.filter { members[$0] == nil }.sorted().map { "\(variable)=\($0)" }
            let kept = categories.filter { members[$0.key] != nil }
            let total = kept.values.reduce(0, +)
            guard total > 0 else { continue }
            constraints.append(kept.keys.sorted().map { (members[$0]!, kept[$0]! * representedPopulation / total) })
        }
        var w = eligible.map { zonePopulation[$0.homeZone!]! / Double(byZone[$0.homeZone!]!.count) }
        func error() -> Double {
            constraints.joined().reduce(0.0) { worst, c in
                let sum = c.members.reduce(0.0) { $0 + w[$1] }
                return max(worst, c.target > 0 ? abs(sum / c.target - 1) : sum)
            }
        }
        for cycle in 1...Self.maximumIterations {
            for set in constraints {
                for c in set {
                    let sum = c.members.reduce(0.0) { $0 + w[$1] }
                    guard sum > 0 else { continue }
                    let factor = c.target / sum
                    for m in c.members { w[m] *= factor }
                }
            }
            iterations = cycle
            if error() < Self.tolerance { converged = true; break }
        }
        largestMarginError = error()
        for (index, person) in eligible.enumerated() {
            weights[person.person] = w[index]
            dailyWeights[person.person] = w[index] / Double(person.validDays)
        }
        implausible = Self.implausible(weights, representedPopulation: representedPopulation)
    }

    /// The weights above the bounds (`medianMultiple` times the median, `populationShare` of
    /// `representedPopulation`), each with the bound it passes.
    public static func implausible(_ weights: [String: Double], representedPopulation: Double) -> [String: String] {
        let median = Quantile.median(Array(weights.values)) ?? 0
        var found: [String: String] = [:]
        for (person, weight) in weights {
            if representedPopulation > 0, weight > populationShare * representedPopulation {
                found[person] = String(
                    format: "stands for %.1f %% of the %.0f residents represented (bound %.0f %%)", 100 * weight / representedPopulation,
                    representedPopulation, 100 * populationShare)
            } else if median > 0, weight > medianMultiple * median {
                found[person] = String(
                    format: "%.1f times the median weight %.1f (bound %.0f times)", weight / median, median, medianMultiple)
            }
        }
        return found
    }
}
