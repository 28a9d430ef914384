/// Some of a track's points, in their order, read as `PositionFix`es one at a time.
///
/// A device's track is the largest thing the trip stage holds (32 bytes a point). Its GPS
/// windows and leg features read fixes: made into an array of `PositionFix`es (88 bytes each)
/// they cost 2.75 times the track again, 141 MB for 1.6 million fixes. This view holds the
/// track's points (shared, not copied) and 4 bytes per chosen point; a fix is made when it is
/// read, and readers that need an array make one of a bounded piece at a time
/// (`WindowFeatureExtractor.forEachGPSPiece`).
public struct TrackFixes: RandomAccessCollection, Sendable {
    public let points: [TrackPoint]
    /// Which points, as indices into `points`, in time order.
    private let chosen: [UInt32]

    /// The points at `indices` (ascending).
    public init(_ points: [TrackPoint], indices: some Collection<Int>) {
        precondition(points.count <= Int(UInt32.max), "a track of more than 4 billion points")
        self.points = points
        var chosen: [UInt32] = []
        chosen.reserveCapacity(indices.count) // counted first: grown by doubling, a year's indices would be copied 20 times
        for index in indices { chosen.append(UInt32(index)) }
        self.chosen = chosen
    }

    /// The points in `range` (a leg's fixes). Not generic, like `init(_:where:)`: the
    /// generic initialiser, called from another module, is not specialised and read each
    /// index through the runtime's generic metadata (11 % of a 1.6 M-fix run's samples).
    public init(_ points: [TrackPoint], range: ClosedRange<Int>) {
        precondition(points.count <= Int(UInt32.max), "a track of more than 4 billion points")
        self.points = points
        var chosen: [UInt32] = []
        chosen.reserveCapacity(range.count)
        for index in range { chosen.append(UInt32(index)) }
        self.chosen = chosen
    }

    /// The points whose entry in `chosen` (one per point) is true.
    public init(_ points: [TrackPoint], where chosen: [Bool]) {
        precondition(chosen.count == points.count, "one flag per point")
        precondition(points.count <= Int(UInt32.max), "a track of more than 4 billion points")
        self.points = points
        var count = 0
        for flag in chosen where flag { count += 1 }
        var indices: [UInt32] = []
        indices.reserveCapacity(count)
        for (index, flag) in chosen.enumerated() where flag { indices.append(UInt32(index)) }
        self.chosen = indices
    }

    /// Every point of `points`.
    public init(_ points: [TrackPoint]) {
        self.init(points, indices: points.indices)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { chosen.count }

    public subscript(position: Int) -> PositionFix { PositionFix(points[Int(chosen[position])]) }

    /// The chosen points' times, seconds since 1970, read from the track: as an array they
    /// were 8 bytes a fix (13 MB at 1.6 M fixes, 250 MB for a year at 1 Hz) beside the track.
    public var times: Times { Times(points: points, chosen: chosen[...]) }

    /// Some of a track's points' times, indexed from 0.
    public struct Times: RandomAccessCollection, Sendable {
        @usableFromInline let points: [TrackPoint]
        @usableFromInline let chosen: ArraySlice<UInt32>

        @usableFromInline init(points: [TrackPoint], chosen: ArraySlice<UInt32>) { (self.points, self.chosen) = (points, chosen) }

        @inlinable public var startIndex: Int { 0 }
        @inlinable public var endIndex: Int { chosen.count }

        @inlinable public subscript(position: Int) -> Double { points[Int(chosen[chosen.startIndex + position])].timeSeconds }

        /// The times at `range` of these, indexed from 0 (not copied).
        public func segment(_ range: Range<Int>) -> Times {
            Times(points: points, chosen: chosen[(chosen.startIndex + range.lowerBound)..<(chosen.startIndex + range.upperBound)])
        }
    }
}
