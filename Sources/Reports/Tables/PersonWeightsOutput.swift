import Foundation
import MobilityCore
import Trips

/// `restricted/person_weights.csv`: each person's expansion weight (`ExpansionWeights`): their
/// home zone (the zone of the layer their home location lies in), valid person-days and
/// categories, raked to the population's zone and attribute margins.
public struct PersonWeightsOutput {
    public static let fileName = OutputSchema.personWeights.file

    public struct Summary: Sendable, Codable {
        /// The population file as given.
        public var population = ""
        public var persons = 0, weighted = 0
        /// Persons without a weight, by reason.
        public var unweighted: [String: Int] = [:]
        public var iterations = 0
        public var converged = false
        public var largestMarginError = 0.0
        public var totalPopulation = 0.0, representedPopulation = 0.0
        public var zonesWithoutSample: [String] = [], categoriesWithoutSample: [String] = []
        /// The persons whose weight is above the plausibility bounds (`ExpansionWeights`), by name:
        /// `--json` is the operator's, as the restricted page is.
        public var implausible: [Implausible] = []
        enum CodingKeys: String, CodingKey {
            case population, persons, weighted, unweighted, iterations, converged, largestMarginError = "largest_margin_error"
            case totalPopulation = "total_population", representedPopulation = "represented_population"
            case zonesWithoutSample = "zones_without_sample", categoriesWithoutSample = "categories_without_sample", implausible
        }

        public init() {}

        /// A summary an earlier version kept in the store has no `implausible`.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            (population, persons, weighted) = (
                try c.decode(String.self, forKey: .population), try c.decode(Int.self, forKey: .persons),
                try c.decode(Int.self, forKey: .weighted)
            )
            (unweighted, iterations, converged) = (
                try c.decode([String: Int].self, forKey: .unweighted), try c.decode(Int.self, forKey: .iterations),
                try c.decode(Bool.self, forKey: .converged)
            )
            (largestMarginError, totalPopulation, representedPopulation) = (
                try c.decode(Double.self, forKey: .largestMarginError), try c.decode(Double.self, forKey: .totalPopulation),
                try c.decode(Double.self, forKey: .representedPopulation)
            )
            (zonesWithoutSample, categoriesWithoutSample) = (
                try c.decode([String].self, forKey: .zonesWithoutSample), try c.decode([String].self, forKey: .categoriesWithoutSample)
            )
            implausible = try c.decodeIfPresent([Implausible].self, forKey: .implausible) ?? []
        }
    }

    /// A person whose weight passes a plausibility bound, with which and by how much.
    public struct Implausible: Sendable, Codable, Equatable {
        public var person: String
        public var weight: Double
        public var reason: String
    }

    /// Weights the sample's persons to `zonePopulation` and `margins` and writes the file into
    /// `outputFolder`'s `restricted/`.
    public static func write(
        _ sample: PlanningSample, layer: ZoneLayer, populationPath: String, zonePopulation: [String: Double],
        margins: [String: [String: Double]], attributes: [String: [String: String]], outputFolder: String
    ) throws -> (weights: ExpansionWeights, summary: Summary) {
        let names = Set(sample.validDays.keys).union(sample.homes.keys).union(sample.trips.map(\.person)).sorted()
        let persons = names.map { name in
            ExpansionWeights.Person(
                person: name,
                homeZone: sample.homes[name].flatMap { layer.zone(latitudeDegrees: $0.latitude, longitudeDegrees: $0.longitude) }
                    .map { layer.zones[$0].id }, hasHome: sample.homes[name] != nil,
                validDays: sample.validDays[name] ?? 0, attributes: attributes[name] ?? [:])
        }
        let weights = ExpansionWeights(persons: persons, zonePopulation: zonePopulation, margins: margins)
        var csv = CSVWriter(columns: OutputSchema.personWeights.names)
        for person in persons {
            let weight = weights.weights[person.person]
            csv.append([
                person.person, person.homeZone, String(person.validDays), weight.map { String(format: "%.4f", $0) },
                weights.dailyWeights[person.person].map { String(format: "%.4f", $0) },
                weight == nil ? ExpansionWeights.reason(for: person, zonePopulation: zonePopulation, margins: margins) : nil,
                weights.implausible[person.person]
            ])
        }
        try csv.write(to: OutputLayout.path(fileName, in: outputFolder))
        var summary = Summary()
        (summary.population, summary.persons, summary.weighted, summary.unweighted) = (
            populationPath, persons.count, weights.weights.count, weights.unweighted
        )
        (summary.iterations, summary.converged, summary.largestMarginError) = (
            weights.iterations, weights.converged, weights.largestMarginError
        )
        (summary.totalPopulation, summary.representedPopulation) = (weights.population, weights.representedPopulation)
        (summary.zonesWithoutSample, summary.categoriesWithoutSample) = (weights.zonesWithoutSample, weights.categoriesWithoutSample)
        summary.implausible = weights.implausible.sorted { $0.key < $1.key }.map {
            Implausible(person: $0.key, weight: weights.weights[$0.key]!, reason: $0.value)
        }
        return (weights, summary)
    }

    public static func text(_ s: Summary) -> String {
        "weights: \(s.weighted) of \(s.persons) persons weighted to \(Int(s.representedPopulation.rounded())) of \(Int(s.totalPopulation.rounded())) residents of \((s.population as NSString).lastPathComponent) "
            + "(raked in \(s.iterations) cycles, " + (s.converged ? "converged" : "not converged")
            + String(format: ", largest margin error %.2g)", s.largestMarginError)
            + (s.unweighted.isEmpty
                ? ""
                : "; without a weight: " + s.unweighted.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))
            + (s.zonesWithoutSample.isEmpty ? "" : "; \(s.zonesWithoutSample.count) zones have no sampled person and are not represented")
            + (s.categoriesWithoutSample.isEmpty ? "" : "; no sampled person in " + s.categoriesWithoutSample.joined(separator: ", "))
    }

    /// The warning when weights are implausible: how many, the bounds, and where they are named.
    public static func implausibleWarning(_ s: Summary) -> String? {
        guard !s.implausible.isEmpty else { return nil }
        return
            "weights: \(s.implausible.count) of \(s.weighted) weighted persons \(s.implausible.count == 1 ? "has" : "have") an implausible weight (over "
            + "\(Int(ExpansionWeights.medianMultiple)) times the median weight, or alone over "
            + "\(Int(100 * ExpansionWeights.populationShare)) % of the represented residents): the weighted columns lean on them, "
            + "and a weighted value they make most of is left out (dominance rule). restricted/person_weights.csv "
            + "(implausible_weight), the operator's report and --json (weights.implausible) name them; a larger panel, "
            + "or a population of the zones the panel covers, gives plausible weights"
    }
}
