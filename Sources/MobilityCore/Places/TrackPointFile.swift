import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A device's fixes written to an unlinked temporary file as they come, and read back a page
/// at a time (`TrackPoints`). The trip stage holds the fixes of one movement at once (those
/// since the last long stay or gap, `TrackPieceAnalysis`): a logger that never stops is one
/// movement, and its fixes (32 bytes each) were all of its memory's growth, 51 MB at 1.6 M
/// fixes and 1 GB for a year at 1 Hz. Here they take disk, and memory for `cachedPages` pages
/// of `pagePoints` fixes (4 MiB): every stage reads a movement's fixes in order, or near the
/// last it read. The file is unlinked as soon as it is made: it is gone with the last view of
/// it, or with the process, however it ends.
///
/// Written here rather than memory-mapped: a mapped file's pages count in the process's
/// resident memory once read, until the kernel needs them, so the track's 51 MB stayed.
///
/// The thread that made it (a device is analysed by one job) writes it and reads it through the
/// page cache, which is its alone: its stages read every fix many times, and a lock and a
/// reference count per read had made the trip stage on 1.6 M fixes twice as slow (10.3 s, not
/// 5.0). Another thread may read it too, each fix from the file, without the cache.
public final class TrackPointFile: @unchecked Sendable {
    /// Where the file was made.
    public let directory: String
    private let descriptor: Int32
    private let owner = pthread_self()
    /// Fixes written so far (written by the owner only).
    private let written = UnsafeMutablePointer<Int>.allocate(capacity: 1)
    /// The pages read: `cachedPages` slots of `pagePoints` fixes, each slot's first fix's
    /// position (-1: empty), its fixes read and when it was last used; and the slot last read.
    /// Unsafe storage, the owner's alone: neither reference counts nor exclusivity checks.
    private let slots: UnsafeMutablePointer<TrackPoint>
    private let slotFirst: UnsafeMutablePointer<Int>, slotCount: UnsafeMutablePointer<Int>, slotUsed: UnsafeMutablePointer<Int>
    private let state = UnsafeMutablePointer<(slot: Int, clock: Int)>.allocate(capacity: 1)

    /// Fixes in a page read at once: 16,384 (512 KiB).
    public static let pagePoints = 1 << 14
    /// Pages kept read: 8 (4 MiB).
    public static let cachedPages = 8
    private static let stride = MemoryLayout<TrackPoint>.stride

    /// A file made in `directory` (beside the store: the system's temporary folder may be a RAM
    /// disk) and unlinked at once.
    public init(directory: String) throws {
        self.directory = directory
        descriptor = try UnlinkedFile.make(in: directory, prefix: ".pipeline-fixes", for: "a device's fixes")
        written.initialize(to: 0)
        slots = .allocate(capacity: Self.cachedPages * Self.pagePoints)
        (slotFirst, slotCount, slotUsed) = (
            .allocate(capacity: Self.cachedPages), .allocate(capacity: Self.cachedPages), .allocate(capacity: Self.cachedPages)
        )
        slotFirst.initialize(repeating: -1, count: Self.cachedPages)
        slotCount.initialize(repeating: 0, count: Self.cachedPages)
        slotUsed.initialize(repeating: 0, count: Self.cachedPages)
        state.initialize(to: (0, 0))
    }

    deinit {
        close(descriptor)
        for pointer in [written, slotFirst, slotCount, slotUsed] { pointer.deallocate() }
        slots.deallocate()
        state.deallocate()
    }

    private var isOwner: Bool { pthread_equal(pthread_self(), owner) != 0 }

    /// Fixes written so far (on the thread that made the file).
    public var count: Int {
        precondition(isOwner, "the fixes' file is written on the thread that made it")
        return written.pointee
    }

    /// Writes `points` after those written before, on the thread that made the file. A failed
    /// write (a full disk) throws, naming the folder, and leaves the file as it was.
    public func append(_ points: [TrackPoint]) throws {
        precondition(isOwner, "the fixes' file is written on the thread that made it")
        let first = written.pointee
        try points.withUnsafeBytes { raw in
            try write(raw, at: first * Self.stride)
        }
        written.pointee = first + points.count
        // A block read before these were written may end short of them: read it again when needed.
        for slot in 0..<Self.cachedPages where slotFirst[slot] >= 0 && slotFirst[slot] + slotCount[slot] >= first {
            slotFirst[slot] = -1
        }
    }

    /// The fix at `position` (from 0, below `count`).
    public subscript(position: Int) -> TrackPoint {
        guard isOwner else { return readOne(position) }
        let slot = state.pointee.slot
        let first = slotFirst[slot]
        if first >= 0, position >= first, position < first + slotCount[slot] {
            return slots[slot * Self.pagePoints + position - first]
        }
        return miss(position)
    }

    /// Fixes read at once for a read far from every page held: 256 (8 KiB). A binary search
    /// over a year's fixes (a piece of GPS windows' fixes, each window's) probes about 25
    /// places pages apart: with a page read for each, the year's trip stage still ran after 7
    /// minutes, where it had taken 85 s with the fixes in memory.
    static let probePoints = 1 << 8

    /// A fix not in the last page read: from another page read, or read into the slot used
    /// longest ago: its whole page when it lies within a page of one held (reading on), else
    /// `probePoints` around it.
    private func miss(_ position: Int) -> TrackPoint {
        precondition(position >= 0 && position < written.pointee, "a fix of the file")
        state.pointee.clock += 1
        func holds(_ slot: Int) -> Bool {
            slotFirst[slot] >= 0 && position >= slotFirst[slot] && position < slotFirst[slot] + slotCount[slot]
        }
        var slot = (0..<Self.cachedPages).first(where: holds)
        if slot == nil {
            let near = (0..<Self.cachedPages).contains { slot in
                slotFirst[slot] >= 0 && position >= slotFirst[slot] - Self.pagePoints
                    && position < slotFirst[slot] + slotCount[slot] + Self.pagePoints
            }
            let size = near ? Self.pagePoints : Self.probePoints
            let start = position - position % size
            let oldest = (0..<Self.cachedPages).min { slotUsed[$0] < slotUsed[$1] }!
            let count = min(written.pointee, start + size) - start
            read(into: UnsafeMutableRawPointer(slots + oldest * Self.pagePoints), bytes: count * Self.stride, at: start * Self.stride)
            (slotFirst[oldest], slotCount[oldest]) = (start, count)
            slot = oldest
        }
        slotUsed[slot!] = state.pointee.clock
        state.pointee.slot = slot!
        return slots[slot! * Self.pagePoints + position - slotFirst[slot!]]
    }

    /// One fix read from the file, for a thread other than the owner.
    private func readOne(_ position: Int) -> TrackPoint {
        precondition(position >= 0, "a fix of the file")
        var point = TrackPoint(timeSeconds: 0, latitudeDegrees: 0, longitudeDegrees: 0)
        withUnsafeMutableBytes(of: &point) { read(into: $0.baseAddress!, bytes: Self.stride, at: position * Self.stride) }
        return point
    }

    private func write(_ raw: UnsafeRawBufferPointer, at offset: Int) throws {
        var done = 0
        while done < raw.count {
            let result = pwrite(descriptor, raw.baseAddress! + done, raw.count - done, off_t(offset + done))
            if result < 0, errno == EINTR { continue }
            guard result > 0 else {
                throw PipelineError(
                    .cannotWrite,
                    "cannot write a device's fixes to a temporary file in \(directory): \(String(cString: strerror(errno))); free space there"
                )
            }
            done += result
        }
    }

    /// Bytes from the file. It was written by this process a moment before, so a failed read
    /// means the system lost it: the run stops, naming the folder.
    private func read(into buffer: UnsafeMutableRawPointer, bytes: Int, at offset: Int) {
        var done = 0
        while done < bytes {
            let result = pread(descriptor, buffer + done, bytes - done, off_t(offset + done))
            if result < 0, errno == EINTR { continue }
            guard result > 0 else {
                let reason = result == 0 ? "it ended early" : String(cString: strerror(errno))
                fatalError("cannot read a device's fixes back from a temporary file in \(directory): \(reason)")
            }
            done += result
        }
    }
}
