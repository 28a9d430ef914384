/// Some of a track's points, in their order, read as `PositionFix`es one at a time.
///
/// A device's track is the largest thing the trip stage holds (32 bytes a point). Its GPS
/// windows and leg features read fixes: made into an array of `PositionFix`es (88 bytes each)
/// they cost 2.75 times the track again, 141 MB for 1.6 million fixes. This view holds the
/// track's points (shared, not copied) and 4 bytes per chosen point, or nothing when the chosen
/// points are one run of the track (a leg's fixes, or a track that never stops: 124 MB for a
/// year at 1 Hz); a fix is made when it is read, and readers that need an array make one of a
/// bounded piece at a time (`WindowFeatureExtractor.forEachGPSPiece`).
public struct TrackFixes: RandomAccessCollection, Sendable {
    public let points: TrackPoints
    /// Which points, in time order.
    @usableFromInline let chosen: Choice

    /// Which of a track's points: indices into it, or one run of it.
    @usableFromInline enum Choice: Sendable {
        case indices(ArraySlice<UInt32>)
        case run(start: Int, count: Int)

        @inlinable var count: Int {
            switch self {
            case .indices(let indices): indices.count
            case .run(_, let count): count
            }
        }

        /// The index into the track of the `position`th chosen point.
        @inlinable func point(_ position: Int) -> Int {
            switch self {
            case .indices(let indices): Int(indices[indices.startIndex + position])
            case .run(let start, _): start + position
            }
        }

        /// Positions `range` of these, counted from 0.
        func part(_ range: Range<Int>) -> Choice {
            switch self {
            case .indices(let indices):
                .indices(indices[(indices.startIndex + range.lowerBound)..<(indices.startIndex + range.upperBound)])
            case .run(let start, _): .run(start: start + range.lowerBound, count: range.count)
            }
        }
    }

    /// The points at `indices` (ascending).
    public init(_ points: TrackPoints, indices: some Collection<Int>) {
        precondition(points.count <= Int(UInt32.max), "a track of more than 4 billion points")
        self.points = points.rebased()
        var chosen: [UInt32] = []
        chosen.reserveCapacity(indices.count) // counted first: grown by doubling, a year's indices would be copied 20 times
        for index in indices { chosen.append(UInt32(index)) }
        self.chosen = .indices(chosen[...])
    }

    /// The points in `range` (a leg's fixes), by the run alone. Not generic, like
    /// `init(_:where:)`: the generic initialiser, called from another module, is not
    /// specialised and read each index through the runtime's generic metadata (11 % of a
    /// 1.6 M-fix run's samples).
    public init(_ points: TrackPoints, range: ClosedRange<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound < points.count, "a range of the track's points")
        self.points = points.rebased()
        chosen = .run(start: range.lowerBound, count: range.count)
    }

    /// The points whose entry in `chosen` (one per point) is true: by the run alone when they
    /// are one.
    public init(_ points: TrackPoints, where chosen: [Bool]) {
        precondition(chosen.count == points.count, "one flag per point")
        precondition(points.count <= Int(UInt32.max), "a track of more than 4 billion points")
        self.points = points.rebased()
        var count = 0, first = -1, last = -1
        for (index, flag) in chosen.enumerated() where flag {
            count += 1
            if first < 0 { first = index }
            last = index
        }
        if count == 0 || last - first + 1 == count {
            self.chosen = .run(start: Swift.max(first, 0), count: count)
            return
        }
        var indices: [UInt32] = []
        indices.reserveCapacity(count)
        for (index, flag) in chosen.enumerated() where flag { indices.append(UInt32(index)) }
        self.chosen = .indices(indices[...])
    }

    /// Every point of `points`.
    public init(_ points: TrackPoints) {
        self.points = points.rebased()
        chosen = .run(start: 0, count: points.count)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { chosen.count }

    public subscript(position: Int) -> PositionFix { PositionFix(points[chosen.point(position)]) }

    /// The chosen points' times, seconds since 1970, read from the track: as an array they
    /// were 8 bytes a fix (13 MB at 1.6 M fixes, 250 MB for a year at 1 Hz) beside the track.
    public var times: Times { Times(points: points, chosen: chosen) }

    /// Some of a track's points' times, indexed from 0.
    public struct Times: RandomAccessCollection, Sendable {
        @usableFromInline let points: TrackPoints
        @usableFromInline let chosen: Choice

        @usableFromInline init(points: TrackPoints, chosen: Choice) { (self.points, self.chosen) = (points, chosen) }

        @inlinable public var startIndex: Int { 0 }
        @inlinable public var endIndex: Int { chosen.count }

        @inlinable public subscript(position: Int) -> Double { points[chosen.point(position)].timeSeconds }

        /// The times at `range` of these, indexed from 0 (not copied).
        public func segment(_ range: Range<Int>) -> Times { Times(points: points, chosen: chosen.part(range)) }
    }
}
