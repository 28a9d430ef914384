import Foundation
import MobilityCore
import TestSupport
import Testing

/// A device's fixes held in a file and read a page at a time (`TrackPointFile`, `TrackPoints`):
/// every point, slice and view reads what the array holds, whatever pages were read before.
@Suite struct TrackPointFileTests {
    /// Points with every field distinct (and an accuracy left unknown every seventh).
    static func points(_ count: Int, from first: Int = 0) -> [TrackPoint] {
        (first..<first + count).map { index -> TrackPoint in
            let step = Double(index)
            let accuracy: Double = index % 7 == 0 ? .nan : Double(index % 50)
            return TrackPoint(
                timeSeconds: 1_700_000_000 + step * 1.5, latitudeDegrees: 48 + step * 1e-5, longitudeDegrees: 2 - step * 3e-6,
                accuracyMeters: accuracy)
        }
    }

    @Test func aFilesPointsAreTheArraysInAnyOrderOfReading() throws {
        let folder = try TemporaryFolder()
        let file = try TrackPointFile(directory: folder.path)
        let pages = TrackPointFile.pagePoints
        let all = Self.points(pages * (TrackPointFile.cachedPages + 3) + 123)
        // Written in pieces that end inside pages; a page read while it was the last, short
        // one, is read again once more of it is written.
        var written = 0
        for size in [1, pages - 1, 5, pages * 2 + 17, all.count] where written < all.count {
            let piece = Array(all[written..<min(all.count, written + size)])
            try file.append(piece)
            written += piece.count
            #expect(file.count == written)
            #expect(file[written - 1] == all[written - 1], "the last point written, after \(written)")
        }
        let whole = TrackPoints(file, range: 0..<all.count)
        #expect(whole.isInFile && whole.count == all.count)
        #expect(Array(whole) == all, "in order")
        #expect(Array(whole.reversed()) == Array(all.reversed()), "backwards, through more pages than are kept")
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<2_000 {
            let index = Int.random(in: 0..<all.count, using: &generator)
            #expect(whole[index] == all[index], "point \(index)")
        }
        // A range of the file indexed from 0, its slices with their parent's indices.
        let part = TrackPoints(file, range: 1_000..<all.count - 1_000)
        #expect(part.startIndex == 0 && part.count == all.count - 2_000 && part.first == all[1_000])
        let slice = part[pages - 10..<pages * 3]
        #expect(slice.startIndex == pages - 10 && Array(slice) == Array(all[1_000 + pages - 10..<1_000 + pages * 3]))
        #expect(slice.rebased().startIndex == 0 && slice.rebased().array == Array(slice))
        // Another thread reads each point from the file, not through the cache.
        let indices = [0, 1, pages - 1, pages, all.count / 2, all.count - 1]
        let elsewhere = ConcurrentSlots<TrackPoint>(count: indices.count)
        try runConcurrently([{}, { for (slot, index) in indices.enumerated() { elsewhere.store(whole[index], at: slot) } }])
        #expect(elsewhere.values == indices.map { all[$0] }, "read on another thread")
        // Read as fixes, they are those of the same points in memory.
        let flags = all.indices.map { $0 % 3 != 0 }
        #expect(Array(TrackFixes(whole, where: flags)) == Array(TrackFixes(TrackPoints(all), where: flags)))
        #expect(Array(TrackFixes(whole, range: 5...pages + 5).times) == Array(TrackFixes(TrackPoints(all), range: 5...pages + 5).times))
    }

    @Test func anArraysPointsKeepItsIndicesInSlices() {
        let all = Self.points(100)
        let points = TrackPoints(all)
        #expect(!points.isInFile && points.array == all && Array(points) == all)
        let slice = points[10..<20]
        #expect(slice.startIndex == 10 && slice[10] == all[10] && Array(slice) == Array(all[10..<20]))
        #expect(slice.rebased()[0] == all[10] && slice.array == Array(all[10..<20]))
        #expect(points[...].array == all)
    }

    @Test func aFolderThatCannotHoldTheFileSaysWhich() throws {
        #expect {
            _ = try TrackPointFile(directory: "/nonexistent/folder")
        } throws: { error in
            "\(error)".contains("/nonexistent/folder") && "\(error)".contains("fixes")
        }
    }
}
