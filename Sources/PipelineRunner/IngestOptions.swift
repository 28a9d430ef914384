import Ingest

/// Everything an ingest run needs to know, gathered by the command line.
public struct IngestOptions {
    public var paths: [String]
    public var storePath: String
    /// Where `quarantine.csv` goes; nil to write no report files.
    public var reportsFolder: String?
    public var cleaning = CleaningParameters()
    public var namePattern: String?
    public var columns: ColumnMappingSpec?
    /// Re-read inputs even when their content is unchanged.
    public var force = false
    /// Hash every input to decide that it is unchanged, instead of trusting an unchanged size,
    /// modification time and inode (`FileSignature`).
    public var verify = false

    public init(paths: [String], storePath: String) {
        self.paths = paths
        self.storePath = storePath
    }
}
