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
        enum CodingKeys: String, CodingKey {
            case population, persons, weighted, unweighted, iterations, converged, largestMarginError = "largest_margin_error"
            case totalPopulation = "total_population", representedPopulation = "represented_population"
            case zonesWithoutSample = "zones_without_sample", categoriesWithoutSample = "categories_without_sample"
        }
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
                weight == nil ? ExpansionWeights.reason(for: person, zonePopulation: zonePopulation, margins: margins) : nil
            ])
        }
        try csv.write(to: OutputLayout.path(fileName, in: outputFolder))
        let summary = Summary(
            population: populationPath, persons: persons.count, weighted: weights.weights.count, unweighted: weights.unweighted,
            iterations: weights.iterations, converged: weights.converged, largestMarginError: weights.largestMarginError,
            totalPopulation: weights.population, representedPopulation: weights.representedPopulation,
            zonesWithoutSample: weights.zonesWithoutSample, categoriesWithoutSample: weights.categoriesWithoutSample)
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
}
