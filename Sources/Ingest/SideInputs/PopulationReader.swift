import Foundation
import MobilityCore

/// Reads what expansion weights are raked to, and the panel's side of it.
///
/// The population (`--population`): a CSV with `zone_id` and `population` (residents per zone
/// of the zone layer) and, optionally, columns named `variable:category` (`age_band:30-44`,
/// `car:yes`) with the zone's residents in that category; a variable's categories are added
/// over the zones into its margin. The persons' categories (`--person-attributes`): a CSV with
/// `person` and a column per variable (`age_band`, `car`), as a survey's person questionnaire
/// gives them.
public enum PopulationReader {
    public static func population(path: String) throws -> (zones: [String: Double], margins: [String: [String: Double]]) {
        var zones: [String: Double] = [:]
        var margins: [String: [String: Double]] = [:]
        var categories: [(column: String, variable: String, category: String)] = []
        try NamedColumnsCSV.forEachRow(
            path: path,
            header: { names in
                let lower = names.map { $0.lowercased() }
                guard lower.contains("zone_id"), lower.contains("population") else {
                    throw PipelineError(
                        .invalidPopulation, path: path, line: 1,
                        reason:
                            "the header should have zone_id and population (and may have variable:category columns); it has \(names.joined(separator: ", "))"
                    )
                }
                for name in lower where name.contains(":") {
                    let parts = name.split(separator: ":", maxSplits: 1).map(String.init)
                    categories.append((name, parts[0], parts.count > 1 ? parts[1] : ""))
                }
            }
        ) { row in
            guard let zone = row.value("zone_id"), let population = row.value("population").flatMap(NumberParser.double), population >= 0
            else {
                throw PipelineError(.invalidPopulation, path: path, line: row.line, reason: "expected a zone id and a population ≥ 0")
            }
            guard zones[zone] == nil else {
                throw PipelineError(.invalidPopulation, path: path, line: row.line, reason: "zone \(zone) is listed twice")
            }
            zones[zone] = population
            for c in categories {
                guard let value = row.value(c.column) else { continue }
                guard let count = NumberParser.double(value), count >= 0 else {
                    throw PipelineError(
                        .invalidPopulation, path: path, line: row.line, reason: "\(c.column) should be a count ≥ 0, not \(value)")
                }
                margins[c.variable, default: [:]][c.category, default: 0] += count
            }
        }
        guard !zones.isEmpty else { throw PipelineError(.invalidPopulation, path: path, reason: "no zone listed") }
        return (zones, margins)
    }

    /// Each person's category of each variable.
    public static func personAttributes(path: String) throws -> [String: [String: String]] {
        var attributes: [String: [String: String]] = [:]
        var variables: [String] = []
        try NamedColumnsCSV.forEachRow(
            path: path,
            header: { names in
                let lower = names.map { $0.lowercased() }
                guard lower.contains("person") else {
                    throw PipelineError(
                        .invalidPopulation, path: path, line: 1,
                        reason: "the header should have person and a column per variable; it has \(names.joined(separator: ", "))")
                }
                variables = lower.filter { $0 != "person" }
            }
        ) { row in
            guard let person = row.value("person") else {
                throw PipelineError(.invalidPopulation, path: path, line: row.line, reason: "expected a person")
            }
            for variable in variables {
                if let value = row.value(variable) { attributes[person, default: [:]][variable] = value.lowercased() }
            }
        }
        return attributes
    }
}
