import MobilityCore

/// The fixes `TrackPieceAnalysis` holds since its last cut: in memory up to `memoryFixes`, and
/// past that, when given a folder, in a file read a page at a time (`TrackPointFile`). A track
/// that never stops is never cut, so its whole track was held: 51 MB at 1.6 M fixes, 1 GB for a
/// year at 1 Hz. A day at home or a trip of a logger that records on the move only stays in
/// memory, where it is read fastest.
struct HeldFixes {
    /// Where the file is made (beside the store); nil: every fix is held in memory.
    var directory: String?
    /// Fixes held in memory before they go to the file: 262,144 (8 MiB), three days of fixes at
    /// 1 Hz; a resident's day at 1 Hz is 86,400, cut at the night's stay.
    var memoryFixes = 1 << 18

    private var memory: [TrackPoint] = []
    private var file: TrackPointFile?
    /// The position in `file` of the first fix held.
    private var first = 0

    var count: Int { file.map { $0.count - first } ?? memory.count }

    /// Whether the fixes held are in the file.
    var isInFile: Bool { file != nil }

    /// Every fix held, indexed from 0.
    var points: TrackPoints { file.map { TrackPoints($0, range: first..<$0.count) } ?? TrackPoints(memory) }

    /// Adds `piece` after the fixes held; to the file once they are more than `memoryFixes`.
    /// Throws when the file cannot be made or written (a full disk), naming the folder.
    mutating func append(_ piece: [TrackPoint]) throws {
        if let file {
            try file.append(piece)
        } else if let directory, memory.count + piece.count > memoryFixes {
            let made = try TrackPointFile(directory: directory)
            try made.append(memory)
            try made.append(piece)
            (file, first, memory) = (made, 0, [])
        } else {
            memory += piece
        }
    }

    /// Lets the first `count` fixes go; those left go back to memory when they are few enough.
    mutating func removeFirst(_ count: Int) {
        guard let file else {
            memory.removeFirst(count)
            return
        }
        first += count
        if file.count - first <= memoryFixes / 2 {
            memory = points.array
            (self.file, first) = (nil, 0)
        }
    }
}
