import Foundation
import TestSupport
import Testing

@testable import Reports

/// The restricted folder as a run prepares it, after a killed run of an earlier version.
struct OutputLayoutTests {
    @Test func preparingTheFolderRemovesWhatKilledAtomicWritesLeft() throws {
        let folder = try TemporaryFolder()
        let restricted = OutputLayout.restricted(in: folder.path)
        try FileManager.default.createDirectory(atPath: restricted, withIntermediateDirectories: true)
        // What Foundation's `.atomic` write leaves when the process dies before its rename.
        for path in [folder.file(".dat.nosync653B.ZY6cDc"), restricted + "/.dat.nosync12A.x1"] {
            try Data("half a README".utf8).write(to: URL(fileURLWithPath: path))
        }
        try Data("the user's own note".utf8).write(to: URL(fileURLWithPath: folder.file("notes.dat")))
        try OutputLayout.prepareRestricted(in: folder.path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: restricted) == ["README.txt"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["notes.dat", "restricted"])
        #expect(FileManager.default.contents(atPath: restricted + "/README.txt") == Data(OutputLayout.readme.utf8))
    }
}
