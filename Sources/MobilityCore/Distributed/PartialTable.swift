import Foundation

/// One part's partial groups of a table that crosses devices (heat-map cells, OD pairs,
/// modal-split totals, comfort groups), as a distributed run's part writes them and its
/// reducer merges them (spark/pipeline_spark/reductions.py). Each column declares how the
/// parts' values of one group merge (`Merge`, listed by `pipeline schema --json`), so the
/// reducer applies declared operations and holds no grouping rule of its own: the groups are
/// formed here, by the code that forms a single run's (`ODGroup`, `ModalTotal`,
/// `ComfortGroup`, the heat map's cells).
///
/// The file (`<name>.jsonl` in a part's `part-tables/partials/`): JSON lines, the first the
/// column names, then one array per group in column order. JSON rather than CSV because a
/// value may be a list (the persons of a group, the values of an exact sum) and a key may be
/// NULL or the empty string, which a CSV field cannot tell apart.
public struct PartialTable: Sendable, Equatable {
    /// How a column's values of one group, one per part that holds the group, become the
    /// reduced table's value. The parts hold disjoint, contiguous ranges of devices in the
    /// single run's order, so "in part order" is the single run's order.
    public enum Merge: String, Sendable, CaseIterable {
        /// Part of the group's key: a text or NULL, equal in every part's row of the group.
        case key
        /// A setting equal in every part (a map's cell size): the first part's.
        case same
        /// Integers added (counts of disjoint devices, trips, rides).
        case sum
        /// A list of names per part; the number of distinct names over all parts (persons: a
        /// person may carry devices in two parts).
        case distinctCount = "distinct_count"
        /// A list of numbers per part, added one at a time from 0, parts in order: the single
        /// run's additions, so the total is its total to the last bit.
        case orderedSum = "ordered_sum"
        /// A list of numbers per part; all of them ascending, as shortest round-trip texts
        /// separated by spaces (what a median or quantile needs).
        case sortedNumbers = "sorted_numbers"
        /// A list of texts per part; all of them separated by spaces, parts in order.
        case joined
        /// A boolean per part; 1 when it is true in any part, else 0. The reducer also counts
        /// the groups where it is 1 (a negative control).
        case any
        /// A map of name to a list of numbers per part; per name, the numbers added one at a
        /// time from 0, parts in order (each person's part of a magnitude, which the dominance
        /// rule needs: a person may carry devices in two parts). Written as a JSON object, name
        /// to sum.
        case personSums = "person_sums"

        /// What the rule says, for the schema and its page.
        public var about: String {
            switch self {
            case .key: "group key (NULL or text), equal in every part"
            case .same: "equal in every part; the first part's"
            case .sum: "integers added over the parts"
            case .distinctCount: "a list of names per part; the count of distinct names over all parts"
            case .orderedSum: "a list of numbers per part; added one at a time from 0, parts in order"
            case .sortedNumbers: "a list of numbers per part; all ascending, space-separated"
            case .joined: "a list of texts per part; all space-separated, parts in order"
            case .any: "a boolean per part; 1 when true in any part, else 0 (groups with 1 are counted)"
            case .personSums: "a map of name to numbers per part; per name added one at a time from 0, parts in order; a JSON object"
            }
        }
    }

    public struct Column: Sendable, Equatable {
        public var name: String
        public var merge: Merge
        public init(_ name: String, _ merge: Merge) { (self.name, self.merge) = (name, merge) }
    }

    /// One value of a group's row; its case is the one its column's `Merge` takes.
    public enum Value: Sendable, Equatable {
        case text(String?)
        case integer(Int)
        case number(Double)
        case names(Set<String>)
        case numbers([Double])
        case texts([String])
        case flag(Bool)
        case personNumbers([String: [Double]])
    }

    public var name: String
    public var columns: [Column]
    /// In key order (NULL first), so a part's file is the same bytes on every run.
    public private(set) var rows: [[Value]] = []

    public static let folderName = "partials"
    public var fileName: String { name + ".jsonl" }

    public init(name: String, columns: [Column]) { (self.name, self.columns) = (name, columns) }

    public mutating func append(_ row: [Value]) {
        precondition(row.count == columns.count, "\(name): a row needs \(columns.count) values, got \(row.count)")
        rows.append(row)
    }

    /// Rows ordered by their keys (NULL before any text), for stable files.
    public func sorted() -> PartialTable {
        let keys = columns.indices.filter { columns[$0].merge == .key }
        var table = self
        table.rows.sort { a, b in
            for index in keys {
                guard case .text(let x) = a[index], case .text(let y) = b[index], x != y else { continue }
                guard let x else { return true }
                guard let y else { return false }
                return x < y
            }
            return false
        }
        return table
    }

    /// The JSON lines: the column names, then each row.
    public func jsonLines() -> String {
        var text = "[" + columns.map { Self.json($0.name) }.joined(separator: ",") + "]\n"
        for row in rows { text += "[" + row.map(Self.json).joined(separator: ",") + "]\n" }
        return text
    }

    /// Writes `fileName` into `folder` (created), atomically.
    public func write(to folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(sorted().jsonLines().utf8).writeThroughPartial(
            to: URL(fileURLWithPath: (folder as NSString).appendingPathComponent(fileName)))
    }

    static func json(_ value: Value) -> String {
        switch value {
        case .text(let text): text.map(json) ?? "null"
        case .integer(let integer): String(integer)
        case .number(let number): json(number)
        case .names(let names): "[" + names.sorted().map(json).joined(separator: ",") + "]"
        case .numbers(let numbers): "[" + numbers.map(json).joined(separator: ",") + "]"
        case .texts(let texts): "[" + texts.map(json).joined(separator: ",") + "]"
        case .flag(let flag): flag ? "true" : "false"
        case .personNumbers(let parts):
            "{" + parts.sorted { $0.key < $1.key }.map { json($0.key) + ":" + json(.numbers($0.value)) }.joined(separator: ",") + "}"
        }
    }

    /// Shortest round-trip text (Python's `json` reads it back to the same double); the
    /// non-finite as Python's `json` writes and reads them.
    static func json(_ number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number > 0 ? "Infinity" : "-Infinity" }
        return "\(number)"
    }

    static func json(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
