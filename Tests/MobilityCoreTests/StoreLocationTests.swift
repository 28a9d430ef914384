import Foundation
import MobilityCore
import TestSupport
import Testing

/// Where an output folder's store is, and what a `--store` path means.
@Suite struct StoreLocationTests {
    @Test func theStoreIsInTheOutputFoldersRestrictedFolder() {
        #expect(StoreLocation.path(in: "reports") == "reports/restricted/pipeline.sqlite")
        #expect(StoreLocation.temporaryFolder(in: "/data/out") == "/data/out/restricted/.pipeline-tmp")
        #expect(StoreLocation.outputFolder(ofStore: "reports/restricted/pipeline.sqlite") == "reports")
        #expect(StoreLocation.outputFolder(ofStore: "restricted/pipeline.sqlite") == ".")
        #expect(StoreLocation.outputFolder(ofStore: "/data/city.sqlite") == "/data", "a store kept elsewhere by name: its own folder")
        #expect(StoreLocation.formerPath(ofStore: "/data/out/restricted/pipeline.sqlite") == "/data/out/pipeline.sqlite")
        #expect(StoreLocation.formerPath(ofStore: "/data/out/restricted/other.sqlite") == nil)
    }

    @Test func aStoreNamedWhereItUsedToBeMeansTheRestrictedOne() {
        #expect(StoreLocation.resolve("reports/pipeline.sqlite") == "reports/restricted/pipeline.sqlite")
        #expect(StoreLocation.resolve("pipeline.sqlite") == "./restricted/pipeline.sqlite")
        #expect(StoreLocation.resolve("reports/restricted/pipeline.sqlite") == "reports/restricted/pipeline.sqlite")
        #expect(StoreLocation.resolve("out/p.sqlite") == "out/p.sqlite", "any other name is the store itself")
    }

    /// A `pipeline.sqlite` kept by itself (a copy, a merge's work file) is used where it is; one
    /// at the top of an output folder is the folder's restricted store, where it is moved to.
    @Test func aStoreByItselfIsUsedWhereItIs() throws {
        let folder = try TemporaryFolder()
        try folder.write("copy/pipeline.sqlite", "a store")
        #expect(StoreLocation.resolve(folder.file("copy/pipeline.sqlite")) == folder.file("copy/pipeline.sqlite"))
        try folder.write("out/pipeline.sqlite", "a store")
        try folder.write("out/report.html", "<html>")
        #expect(StoreLocation.resolve(folder.file("out/pipeline.sqlite")) == folder.file("out/restricted/pipeline.sqlite"))
        try folder.write("both/pipeline.sqlite", "a store")
        try folder.write("both/restricted/pipeline.sqlite", "the moved store")
        #expect(StoreLocation.resolve(folder.file("both/pipeline.sqlite")) == folder.file("both/restricted/pipeline.sqlite"))
    }
}
