import Foundation
import MobilityCore
import Testing

@Suite struct PipelineErrorTests {
    @Test func aLocationIsWrittenTheWayCompilersWriteIt() {
        let error = PipelineError(.malformedTable, path: "a/b.csv", line: 3, reason: "4 fields, the header has 5")
        #expect(error.message == "a/b.csv:3: 4 fields, the header has 5" && error.description == error.message)
        #expect(error.location == PipelineError.Location(path: "a/b.csv", line: 3))
        #expect(PipelineError(.cannotWrite, "cannot write x").location == nil)
    }

    @Test func onlyALockedStoreExitsWithTryAgainLater() {
        #expect(PipelineError.Code.storeLocked.exitStatus == 75)
        #expect(PipelineError.Code.noStore.exitStatus == 1 && PipelineError.Code.unexpected.exitStatus == 1)
    }

    /// docs/errors.md is what a script author reads: it lists every code the source declares,
    /// and no other.
    @Test func theErrorsPageListsEveryCode() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized
        let source = try String(contentsOf: root.appendingPathComponent("Sources/MobilityCore/PipelineError.swift"), encoding: .utf8)
        let page = try String(contentsOf: root.appendingPathComponent("docs/errors.md"), encoding: .utf8)
        let declared = Set(source.matches(of: /static let \w+ = Self\(rawValue: "(\w+)"\)/).map { String($0.1) })
        let listed = Set(page.matches(of: /^\| `(\w+)` \|/.anchorsMatchLineEndings()).map { String($0.1) })
        #expect(declared.count >= 20)
        #expect(
            declared == listed,
            "declared, not listed: \(declared.subtracting(listed).sorted()); listed, not declared: \(listed.subtracting(declared).sorted())"
        )
    }
}
