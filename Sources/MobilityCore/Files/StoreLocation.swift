import Foundation

/// Where an output folder keeps its store: `OUT/restricted/pipeline.sqlite`, with the files
/// SQLite and the pipeline keep beside it (`-wal`, `-shm`, `.lock`, the unlinked spools of the
/// legs' lines and a device's fixes, the temporary folder zips are unpacked in), all in
/// `restricted/`, beside the tables that identify people.
///
/// The store holds every fix of every person, so it is the first thing that must not be
/// handed on with what publishes: the top of an output folder holds only what may be
/// published, and `restricted/` what stays with the data's keepers (`OutputLayout`). Earlier
/// versions kept the store at the top (`formerPath`); the first command that opens it there
/// moves it (`StoreRelocation`).
public enum StoreLocation {
    /// The store's file name.
    public static let fileName = "pipeline.sqlite"
    /// The sub-folder of an output folder for the store and the files that identify people.
    public static let restrictedFolderName = "restricted"
    /// `outputFolder/restricted/pipeline.sqlite`.
    public static func path(in outputFolder: String) -> String {
        ((outputFolder as NSString).appendingPathComponent(restrictedFolderName) as NSString).appendingPathComponent(fileName)
    }

    /// Where earlier versions kept the store: `outputFolder/pipeline.sqlite`, among what publishes.
    public static func formerPath(in outputFolder: String) -> String {
        (outputFolder as NSString).appendingPathComponent(fileName)
    }

    /// The output folder's temporary folder (zips unpacked once per run, kept ride samples):
    /// `restricted/.pipeline-tmp`, since what it holds is the inputs' own data.
    public static func temporaryFolder(in outputFolder: String) -> String {
        ((outputFolder as NSString).appendingPathComponent(restrictedFolderName) as NSString).appendingPathComponent(".pipeline-tmp")
    }

    /// The output folder a store belongs to: the folder above its `restricted/`, else (a store
    /// kept anywhere else by name) the store's own folder.
    public static func outputFolder(ofStore storePath: String) -> String {
        let folder = (storePath as NSString).deletingLastPathComponent
        guard (folder as NSString).lastPathComponent == restrictedFolderName else { return folder.isEmpty ? "." : folder }
        let above = (folder as NSString).deletingLastPathComponent
        return above.isEmpty ? "." : above
    }

    /// The store a `--store` path means. A `pipeline.sqlite` at the top of a folder (where
    /// earlier versions kept it, and where scripts still name it) is that folder's
    /// `restricted/pipeline.sqlite` when that exists, when no store is there yet (a new store
    /// goes to `restricted/`), or when the folder is an output folder (it holds `restricted/`
    /// or a published file: the store is moved into it when opened). A `pipeline.sqlite` kept
    /// by itself elsewhere (a copy, a merge's work file), and any other path, is the store itself.
    public static func resolve(_ given: String) -> String {
        let folder = (given as NSString).deletingLastPathComponent
        guard (given as NSString).lastPathComponent == fileName,
            (folder as NSString).lastPathComponent != restrictedFolderName
        else { return given }
        let moved = path(in: folder.isEmpty ? "." : folder)
        let files = FileManager.default
        guard files.fileExists(atPath: given), !files.fileExists(atPath: moved) else { return moved }
        return isOutputFolder(folder.isEmpty ? "." : folder) ? moved : given
    }

    /// What a run's output folder holds besides its store: its `restricted/` or a published file.
    static let outputFolderMarks = [restrictedFolderName, "report.html", "od_matrix.csv", "modal_split.csv", "heatmap.csv"]

    /// Whether `folder` is a run's output folder (`outputFolderMarks`).
    static func isOutputFolder(_ folder: String) -> Bool {
        outputFolderMarks.contains { FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent($0)) }
    }

    /// Whether the store `storePath` names exists, there or where earlier versions kept it
    /// (the first command to open it moves it).
    public static func exists(_ storePath: String) -> Bool {
        FileManager.default.fileExists(atPath: storePath)
            || formerPath(ofStore: storePath).map { FileManager.default.fileExists(atPath: $0) } == true
    }

    /// For a store in an output folder's `restricted/`, where earlier versions kept it;
    /// nil for a store kept anywhere else.
    public static func formerPath(ofStore storePath: String) -> String? {
        let folder = (storePath as NSString).deletingLastPathComponent
        guard (storePath as NSString).lastPathComponent == fileName,
            (folder as NSString).lastPathComponent == restrictedFolderName
        else { return nil }
        return formerPath(in: outputFolder(ofStore: storePath))
    }
}
