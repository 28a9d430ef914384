import Foundation

/// Prints a command's `--json` summary: one object on standard output, keys sorted.
enum JSONSummary {
    static func print<Summary: Encodable>(_ summary: Summary) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        Swift.print(String(decoding: try encoder.encode(summary), as: UTF8.self))
    }
}
