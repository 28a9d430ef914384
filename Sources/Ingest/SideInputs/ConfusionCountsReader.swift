import Foundation
import MobilityCore

/// Reads a classifier's confusion, measured on held-out people, for the corrected mode shares:
/// `pipeline evaluate --json`'s output (its `confusion`: labels, and counts with rows true and
/// columns predicted; `evaluated` and `scored_data` name what it was measured on), or a CSV
/// `true_mode,predicted_mode,count` with an optional `person` column (then a bootstrap draws
/// the persons again).
public enum ConfusionCountsReader {
    public struct Count: Sendable, Equatable {
        public var person: String?
        public var truth: String, predicted: String
        public var count: Int
        public init(person: String?, truth: String, predicted: String, count: Int) {
            (self.person, self.truth, self.predicted, self.count) = (person, truth, predicted, count)
        }
    }

    /// The counts and a description of what they were measured on (the file's name, and what
    /// the evaluation says of its data).
    public static func read(path: String) throws -> (counts: [Count], source: String) {
        func failure(_ reason: String, line: Int? = nil) -> PipelineError {
            PipelineError(.invalidConfusionMatrix, path: path, line: line, reason: reason)
        }
        let name = (path as NSString).lastPathComponent
        if path.lowercased().hasSuffix(".json") {
            guard let data = FileManager.default.contents(atPath: path),
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            else { throw failure("not a JSON object; expected `pipeline evaluate --json`'s output") }
            guard let confusion = object["confusion"] as? [String: Any], let labels = confusion["labels"] as? [String],
                let matrix = confusion["matrix"] as? [[Int]], matrix.count == labels.count, matrix.allSatisfy({ $0.count == labels.count })
            else {
                throw failure(
                    "no confusion {labels, matrix} with a row and a column per label; expected `pipeline evaluate --json`'s output")
            }
            var counts: [Count] = []
            for (t, row) in matrix.enumerated() {
                for (o, n) in row.enumerated() where n > 0 {
                    counts.append(Count(person: nil, truth: labels[t], predicted: labels[o], count: n))
                }
            }
            let scored = object["scored_data"] as? [String: Any]
            let persons = (scored?["persons"] as? Int).map { "\($0) persons" }
            let windows = (scored?["windows"] as? Int).map { "\($0) windows" }
            let evaluated = object["evaluated"] as? String
            let about = [evaluated, [persons, windows].compactMap { $0 }.joined(separator: ", ")].compactMap { $0 }.filter { !$0.isEmpty }
            return (counts, name + (about.isEmpty ? "" : " (" + about.joined(separator: "; ") + ")"))
        }
        var counts: [Count] = []
        var hasPerson = false
        try NamedColumnsCSV.forEachRow(
            path: path,
            header: { columns in
                let names = Set(columns.map { $0.lowercased() })
                guard names.isSuperset(of: ["true_mode", "predicted_mode", "count"]) else {
                    throw failure(
                        "the header should have true_mode, predicted_mode and count (and may have person); it has \(columns.joined(separator: ", "))",
                        line: 1)
                }
                hasPerson = names.contains("person")
            }
        ) { row in
            guard let truth = row.value("true_mode"), let predicted = row.value("predicted_mode"),
                let count = row.value("count").flatMap({ Int($0) }), count >= 0
            else { throw failure("expected a true mode, a predicted mode and a count ≥ 0", line: row.line) }
            counts.append(Count(person: hasPerson ? row.value("person") : nil, truth: truth, predicted: predicted, count: count))
        }
        guard counts.contains(where: { $0.count > 0 }) else { throw failure("no counts") }
        let persons = Set(counts.compactMap(\.person)).count
        return (counts, name + " (\(counts.reduce(0) { $0 + $1.count }) labelled units" + (persons > 0 ? " of \(persons) persons)" : ")"))
    }
}
