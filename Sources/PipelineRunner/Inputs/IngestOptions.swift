import Foundation
import Ingest

/// Everything an ingest run needs to know, gathered by the command line.
public struct IngestOptions {
    public var paths: [String]
    public var storePath: String
    /// Where `quarantine.csv` goes; nil to write no report files.
    public var reportsFolder: String?
    public var cleaning = CleaningParameters()
    public var namePattern: String?
    public var columns = ColumnMappings()
    /// Re-read inputs even when their content is unchanged.
    public var force = false
    /// Hash every input to decide that it is unchanged, instead of trusting an unchanged size,
    /// modification time and inode (`FileSignature`).
    public var verify = false
    /// Remove the stored data of inputs whose files are no longer found (default: kept and
    /// listed, since nightly jobs archive what they have read).
    public var pruneMissing = false
    /// Folders never read as inputs besides `reportsFolder` and the store's own folder.
    public var excludedFolders: [String] = []

    /// The folders discovery skips: the store's, the reports', and any others given.
    var outputFolders: [String] {
        [(storePath as NSString).deletingLastPathComponent.isEmpty ? "." : (storePath as NSString).deletingLastPathComponent]
            + (reportsFolder.map { [$0] } ?? []) + excludedFolders
    }

    public init(paths: [String], storePath: String) {
        self.paths = paths
        self.storePath = storePath
    }
}
