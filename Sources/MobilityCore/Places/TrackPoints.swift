/// A device's points in time order, indexed from 0: an array's, or a file's read a page at a
/// time (`TrackPointFile`: a movement too long to hold). Every stage reads a track through this,
/// so none needs to know where its points are. A slice is a `TrackPoints` with its parent's
/// indices, as an `ArraySlice` is.
public struct TrackPoints: RandomAccessCollection, Sendable {
    public typealias Index = Int
    public typealias SubSequence = TrackPoints
    public typealias Indices = Range<Int>

    /// The points when they are in memory (empty when they are in `file`).
    @usableFromInline let memory: [TrackPoint]
    @usableFromInline let file: TrackPointFile?
    /// Where index 0 is in `memory` or `file`.
    @usableFromInline let base: Int
    public let startIndex: Int
    public let endIndex: Int

    @usableFromInline init(memory: [TrackPoint], file: TrackPointFile?, base: Int, bounds: Range<Int>) {
        (self.memory, self.file, self.base) = (memory, file, base)
        (startIndex, endIndex) = (bounds.lowerBound, bounds.upperBound)
    }

    /// The points of an array (not copied).
    public init(_ points: [TrackPoint]) {
        self.init(memory: points, file: nil, base: 0, bounds: 0..<points.count)
    }

    /// Points `range` of a file, indexed from 0.
    public init(_ file: TrackPointFile, range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= file.count, "a range of the file's fixes")
        self.init(memory: [], file: file, base: range.lowerBound, bounds: 0..<range.count)
    }

    @inlinable public subscript(position: Int) -> TrackPoint {
        if let file {
            precondition(position >= startIndex && position < endIndex, "an index of the points")
            return file[base + position]
        }
        return memory[base + position]
    }

    @inlinable public subscript(bounds: Range<Int>) -> TrackPoints {
        precondition(bounds.lowerBound >= startIndex && bounds.upperBound <= endIndex, "a range of the points")
        return TrackPoints(memory: memory, file: file, base: base, bounds: bounds)
    }

    @inlinable public var indices: Range<Int> { startIndex..<endIndex }
    @inlinable public func index(after index: Int) -> Int { index + 1 }
    @inlinable public func index(before index: Int) -> Int { index - 1 }

    /// The same points indexed from 0.
    public func rebased() -> TrackPoints {
        TrackPoints(memory: memory, file: file, base: base + startIndex, bounds: 0..<count)
    }

    /// Whether the points are read from a file.
    public var isInFile: Bool { file != nil }

    /// The points as an array: the array itself when they are all of one, else a copy.
    public var array: [TrackPoint] {
        if file == nil, base == 0, startIndex == 0, endIndex == memory.count { return memory }
        return Array(self)
    }
}
