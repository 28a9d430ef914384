import Foundation

extension Data {
    /// Writes the bytes to `url` through `<path>.partial`, renamed into place: a reader never
    /// sees half a file, and a run killed mid-write leaves only `<path>.partial`, which the next
    /// write of the same file replaces. (Foundation's `.atomic` writes through a randomly named
    /// `.dat.nosync…` file that a killed run leaves in the output folder for good.)
    public func writeThroughPartial(to url: URL) throws {
        try write(to: URL(fileURLWithPath: url.path + ".partial"))
        try Self.movePartialIntoPlace(url.path)
    }

    /// Renames `<path>.partial` to `path` (also `PartialFileWriter.finish`).
    static func movePartialIntoPlace(_ path: String) throws {
        let partial = path + ".partial"
        guard rename(partial, path) == 0 else {
            throw CocoaError(
                .fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, NSLocalizedDescriptionKey: "cannot move \(partial) into place"])
        }
    }
}
