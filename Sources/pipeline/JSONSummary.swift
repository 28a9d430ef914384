import Foundation
import MobilityCore

/// Prints a command's `--json` summary: one object on standard output, keys sorted.
enum JSONSummary {
    static func print<Summary: Encodable>(_ summary: Summary) throws {
        Swift.print(try JSONText.string(summary, keys: .asDeclared, layout: .compact))
    }
}
