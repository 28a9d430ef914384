import MobilityCore

/// What every command's `--store` means (`StoreLocation`): the default is the store of the
/// `reports/` output folder, in its `restricted/`; a `pipeline.sqlite` at the top of a folder
/// (where earlier versions kept it, as scripts still name it) is that folder's
/// `restricted/pipeline.sqlite`, moved there by the first command that opens it.
enum StorePath {
    static let defaultValue = StoreLocation.path(in: "reports")
    /// The help line's note on where the store is.
    static let note = "An output folder's store is OUT/restricted/pipeline.sqlite; OUT/pipeline.sqlite means the same."

    /// The store `--store` names.
    static func resolved(_ given: String) -> String { StoreLocation.resolve(given) }

    /// The output folder of the store `--store` names: where its published files go by default.
    static func outputFolder(_ given: String) -> String { StoreLocation.outputFolder(ofStore: resolved(given)) }
}
