import Foundation
import MobilityCore

/// Reads a large plain GPX file on several cores: the file is cut into blocks at `<trkpt`
/// tags, each block after the first is scanned ahead on a worker thread as if it began between
/// two points of a segment, and the scanner of the whole file, reaching a block's start, takes
/// that block's points over instead of scanning it, when it finds itself exactly there in the
/// state the block supposed. Otherwise (the cut fell in a comment, an extension, a prefixed
/// name, or the block is malformed) it scans the block itself. So the points, their order,
/// tracks, segments and lines, the counts and every error are those of one scan from the
/// start, and a block's own errors never surface: the whole-file scan finds them with their
/// true line and column.
///
/// Written here, not taken from a library, because the GPX scanner is the product's own
/// (`GPXScanner`) and one core scanned the 60 MB benchmark file at about half the rate that 100×
/// gpxpy asks for (docs/performance.md).
///
/// Memory stays bounded: at most `workers + 1` blocks are scanned ahead of the one taken over,
/// each holding its points until then.
struct GPXBlocks {
    let path: String
    let size: Int
    let blockBytes: Int
    let workers: Int
    let chunkBytes: Int

    /// How far past a block's nominal start a `<trkpt` is looked for: 64 KiB. A block with
    /// none there is joined to the one before.
    static let searchBytes = 1 << 16

    /// Scans the file with `scanner`, the scanner of the whole file (its state's visitor gets
    /// every point in order), taking over the blocks scanned ahead; returns how many it took over.
    @discardableResult
    func scan(with scanner: GPXScanner, state: GPXParseState) throws -> Int {
        let starts = try blockStarts()
        guard starts.count > 1 else {
            try scanner.scan()
            return 0
        }
        let bounds = starts + [size]
        let ahead = Ahead(blocks: starts.count, bound: workers + 1)
        let work: @Sendable () -> Void = { [self] in
            while let block = ahead.next() {
                ahead.store(scanAhead(from: bounds[block], to: bounds[block + 1]), for: block)
            }
        }
        let done = DispatchGroup()
        for _ in 0..<workers {
            done.enter()
            let thread = Thread {
                work()
                done.leave()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        defer {
            ahead.cancel()
            done.wait() // no worker outlives this call
        }
        try scanner.begin()
        scanner.limit = bounds[1]
        try scanner.scanToLimit()
        var takenOver = 0
        for block in 1..<starts.count {
            let scanned = ahead.take(block)
            if let scanned, scanner.isBetweenPoints(at: bounds[block]) {
                try state.replay(scanned.events, line: scanner.currentLine())
                try scanner.adopt(scanned.end, resumingAt: bounds[block + 1])
                takenOver += 1
            } else {
                scanner.limit = bounds[block + 1]
                try scanner.scanToLimit()
            }
        }
        scanner.limit = .max
        try scanner.scanToLimit()
        try scanner.finish()
        return takenOver
    }

    /// Offsets where blocks start: 0, then the first `<trkpt` at or after every `blockBytes`.
    func blockStarts() throws -> [Int] {
        let source = try ByteSource(path: path, bufferBytes: 1 << 12)
        var starts = [0]
        var window = [UInt8](repeating: 0, count: Self.searchBytes)
        var nominal = blockBytes
        while nominal + blockBytes / 2 < size {
            try source.seek(to: nominal)
            let count = try window.withUnsafeMutableBytes { try source.read(into: $0) }
            if let found = Self.pointTag(in: window[..<count]) { starts.append(nominal + found) }
            nominal += blockBytes
        }
        return starts
    }

    /// The first `<trkpt` followed by a space, `>` or `/` in `bytes`, relative to their start.
    static func pointTag(in bytes: ArraySlice<UInt8>) -> Int? {
        let tag = Array("<trkpt".utf8)
        var index = bytes.startIndex
        while index + tag.count < bytes.endIndex {
            if bytes[index] == tag[0], bytes[index..<(index + tag.count)].elementsEqual(tag) {
                switch bytes[index + tag.count] {
                case 0x20, 0x09, 0x0A, 0x0D, 0x3E, 0x2F: return index - bytes.startIndex
                default: break
                }
            }
            index += 1
        }
        return nil
    }

    /// A block scanned on its own; nil when it did not end cleanly (an error, a token or
    /// value cut by its end): the whole-file scan then reads it.
    private func scanAhead(from start: Int, to end: Int) -> Scanned? {
        let recorder = GPXBlockRecorder()
        // Reserved for a point every 64 bytes (real GPX takes 90 to 200 a point): grown by
        // doubling, the copies were a tenth of the samples. Pages never written cost nothing.
        recorder.events.reserveCapacity((end - start) / 64)
        let state = GPXParseState(path: path, visitor: recorder)
        do {
            let source = try ByteSource(path: path)
            try source.seek(to: start)
            source.limit(to: end - start)
            let scanner = GPXScanner(blockOf: source, at: start, state: state, chunkBytes: chunkBytes)
            try scanner.scanToLimit()
            return scanner.blockEnd().map { Scanned(events: recorder.events, end: $0) }
        } catch {
            return nil
        }
    }

    struct Scanned: Sendable {
        var events: [GPXBlockEvent]
        var end: GPXBlockEnd
    }

    /// The blocks scanned ahead, handed over in order: a worker takes the next block only
    /// while fewer than `bound` wait past the one being taken over.
    final class Ahead: @unchecked Sendable {
        private let condition = NSCondition()
        private let blocks: Int, bound: Int
        private var nextBlock = 1, takenUpTo = 0, cancelled = false
        private var results: [Int: Scanned?] = [:]

        init(blocks: Int, bound: Int) { (self.blocks, self.bound) = (blocks, bound) }

        func next() -> Int? {
            condition.lock()
            defer { condition.unlock() }
            while !cancelled, nextBlock < blocks, nextBlock - takenUpTo > bound { condition.wait() }
            guard !cancelled, nextBlock < blocks else { return nil }
            defer { nextBlock += 1 }
            return nextBlock
        }

        func store(_ scanned: Scanned?, for block: Int) {
            condition.lock()
            results[block] = .some(scanned)
            condition.broadcast()
            condition.unlock()
        }

        func take(_ block: Int) -> Scanned? {
            condition.lock()
            defer { condition.unlock() }
            while results[block] == nil { condition.wait() }
            takenUpTo = block
            condition.broadcast()
            return results.removeValue(forKey: block)!
        }

        func cancel() {
            condition.lock()
            cancelled = true
            condition.broadcast()
            condition.unlock()
        }
    }
}

/// What a block's scan reported, kept until the whole-file scan takes the block over.
enum GPXBlockEvent: Sendable {
    case trackPoint(PositionFix, FixPosition)
    case waypoint(Waypoint, line: Int)
    case rejected(DropReason, line: Int)
}

/// Where a block's scan ended: the open elements, the counters relative to the block's start,
/// what it counted, and its lines.
struct GPXBlockEnd: Sendable {
    /// A block's track, segment and route, counted from its start: track 0 is the track open
    /// there, and while it is, segments count from the segment open there; routes count from
    /// -1, the last route before the block.
    struct Counters: Sendable {
        var track: Int, segment: Int, route: Int

        /// The block's (track, segment) where these are the counters at its start.
        func absolute(track blockTrack: Int, segment blockSegment: Int) -> (track: Int, segment: Int) {
            blockTrack == 0 ? (track, segment + blockSegment) : (track + blockTrack, blockSegment)
        }

        func absolute(route blockRoute: Int) -> Int { route + 1 + blockRoute }
    }

    var names: [NameKey]
    var rootClosed: Bool
    var elements: [GPXElement]
    var counters: Counters
    var summary: GPXSummary
    var newlines: Int
    /// The offset where the block's last line starts, when it has a line end.
    var lastLineStart: Int?
}

/// Keeps a block's points for `GPXParseState.replay`.
final class GPXBlockRecorder: GPXVisitor {
    var events: [GPXBlockEvent] = []

    func trackPoint(_ fix: PositionFix, at position: FixPosition) throws { events.append(.trackPoint(fix, position)) }
    func waypoint(_ waypoint: Waypoint, line: Int) throws { events.append(.waypoint(waypoint, line: line)) }
    func rejectedPoint(_ reason: DropReason, line: Int) { events.append(.rejected(reason, line: line)) }
}
