import Foundation
import MobilityCore

/// A CSV file written as it is made: its rows go to `<path>.partial` a MiB at a time and
/// `finish()` moves it into place, so a table too big to hold (every fix; a leg's line of a
/// year at 1 Hz) is never held whole and a reader never sees half a file.
final class CSVFileStream {
    var csv: CSVWriter
    private let handle: FileHandle
    private var finished = false
    private let target: String, partial: String

    init(path: String, columns: [String]) throws {
        (target, partial) = (path, path + ".partial")
        guard FileManager.default.createFile(atPath: partial, contents: nil), let handle = FileHandle(forWritingAtPath: partial) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: partial])
        }
        self.handle = handle
        csv = CSVWriter(columns: columns)
    }

    /// A file left unfinished (an error on the way) is closed and its `.partial` removed, as
    /// `dump` removes its own: the previous export's file stays as it was.
    deinit {
        guard !finished else { return }
        try? handle.close()
        try? FileManager.default.removeItem(atPath: partial)
    }

    /// Writes what is waiting once it is a MiB or more.
    func flushWhenFull() throws {
        if csv.pendingBytes >= 1 << 20 { try csv.flush(to: handle) }
    }

    /// Writes the rest, closes the file and moves it into place.
    func finish() throws {
        try csv.flush(to: handle)
        finished = true
        try handle.close()
        guard rename(partial, target) == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: target]) }
    }
}
