import Foundation
import MobilityCore

/// Reads what expansion weights are raked to, and the panel's side of it.
///
/// The population (`--population`): a CSV with `zone_id` and `population` (residents per zone
/// of the zone layer) and, optionally, columns named `variable:category` (`age_band:30-44`,
/// `car:yes`) with the zone's residents in that category; a variable's categories are added
/// over the zones into its margin. The persons' categories (`--person-attributes`): a CSV with
/// `person` and a column per variable (`age_band`, `car`), as a survey's person questionnaire
/// gives them, or the inputs' manifest when it carries them per person.
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

    /// Each person's category of each variable (of `variables` only, when given: the margins'),
    /// from a persons file (`person` and a column per variable) or from the inputs'
    /// `manifest.csv` when it carries them (a column per variable beside `path,device,person,…`;
    /// a row without a person is its device's, as in the store). A person given two categories
    /// of one variable (two rows, in one file or two, that disagree) is an error naming both.
    public static func personAttributes(paths: [String], variables wanted: Set<String>? = nil) throws -> [String: [String: String]] {
        var attributes: [String: [String: String]] = [:], given: [String: (path: String, line: Int)] = [:]
        for path in paths {
            var variables: [String] = [], isManifest = false
            try NamedColumnsCSV.forEachRow(
                path: path,
                header: { names in
                    let lower = names.map { $0.lowercased() }
                    isManifest = lower.contains("path") && lower.contains("device")
                    guard lower.contains("person") || isManifest else {
                        throw PipelineError(
                            .invalidPopulation, path: path, line: 1,
                            reason:
                                "the header should have person and a column per variable (or be a manifest: path,device,person and a column per variable); it has \(names.joined(separator: ", "))"
                        )
                    }
                    variables = lower.filter { !(isManifest ? Manifest.columns : ["person"]).contains($0) && wanted?.contains($0) ?? true }
                }
            ) { row in
                guard let person = row.value("person") ?? (isManifest ? row.value("device") : nil) else {
                    throw PipelineError(.invalidPopulation, path: path, line: row.line, reason: "expected a person")
                }
                for variable in variables {
                    guard let value = row.value(variable)?.lowercased() else { continue }
                    let key = person + "\t" + variable
                    if let earlier = attributes[person]?[variable], earlier != value, let first = given[key] {
                        let place = first.path == path ? "on line \(first.line)" : "in \(first.path) line \(first.line)"
                        throw PipelineError(
                            .invalidPopulation, path: path, line: row.line,
                            reason:
                                "person \(person) has \(variable) \(value) here and \(earlier) \(place): a person has one category of each variable"
                        )
                    }
                    attributes[person, default: [:]][variable] = value
                    given[key] = given[key] ?? (path, row.line)
                }
            }
        }
        return attributes
    }

    /// `personAttributes(paths:variables:)` of one file.
    public static func personAttributes(path: String, variables: Set<String>? = nil) throws -> [String: [String: String]] {
        try personAttributes(paths: [path], variables: variables)
    }
}
