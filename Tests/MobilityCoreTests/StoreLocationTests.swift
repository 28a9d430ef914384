import MobilityCore
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
}
