import MobilityCore

/// Counts per grid cell: fixes, distinct devices, distinct persons, and seconds spent at rest
/// (in a staypoint). Privacy's k counts persons: one person's two phones are one person.
public struct HeatMap: Sendable {
    public struct Counts: Hashable, Sendable {
        public var fixes = 0
        public var devices = 0
        public var persons = 0
        public var dwellSeconds = 0.0

        public init(fixes: Int = 0, devices: Int = 0, persons: Int = 0, dwellSeconds: Double = 0) {
            (self.fixes, self.devices, self.persons, self.dwellSeconds) = (fixes, devices, persons, dwellSeconds)
        }
    }

    public var grid: HeatGrid
    public var filter: HeatMapFilter
    public private(set) var cells: [HeatGrid.Cell: Counts] = [:]
    /// The last person counted in each cell: a person's devices are added one after another
    /// (see `add`), so a cell counts a person once without a set of persons per cell.
    private var lastPerson: [HeatGrid.Cell: String] = [:]

    public init(grid: HeatGrid, filter: HeatMapFilter = HeatMapFilter()) {
        self.grid = grid
        self.filter = filter
    }

    /// A map of counts merged elsewhere: a distributed run's Spark job merges every part's
    /// per-device cells (persons counted over all parts), and `published` then applies k here.
    public init(grid: HeatGrid, cells: [HeatGrid.Cell: Counts]) {
        self.grid = grid
        self.filter = HeatMapFilter()
        self.cells = cells
    }

    /// Adds one device's track, carried by `person` (the device itself when nil). `modes` gives
    /// each fix's mode (nil when unknown) and whether it lies in a staypoint; a fix at rest
    /// followed by another at rest adds the time between them (at most `maxDwellStepSeconds`, so
    /// a data gap adds nothing it cannot vouch for).
    ///
    /// - Precondition: the devices of one person are added one after another (sort the tracks
    ///   by person); otherwise a person is counted once per run of their devices.
    public mutating func add(_ track: DeviceTrack, modes: FixModes, person: String? = nil, maxDwellStepSeconds: Double = 900) {
        var adding = Adding(person: person ?? track.device, maxDwellStepSeconds: maxDwellStepSeconds)
        add(track.points.array, modes: modes, to: &adding)
        finish(&adding)
    }

    /// One device's fixes being added piece by piece (`add(_:modes:to:)`, then `finish`): what
    /// `add(_:modes:person:)` does for a whole track, with the same sums in the same order, so
    /// a device's fixes need never be held at once (the heat-map stage streams them).
    public struct Adding: Sendable {
        let person: String
        let maxDwellStepSeconds: Double
        /// The cells this device was counted in.
        var seen = Set<HeatGrid.Cell>()
        /// Consecutive fixes mostly fall in one cell: its counts are kept here while they do and
        /// stored when the cell changes, one lookup per run of fixes instead of three per fix.
        var run: (cell: HeatGrid.Cell, counts: Counts)?
        /// The last fix given, counted when the next one (or the end) says whether the time to
        /// it was spent at rest.
        var pending: (point: TrackPoint, mode: Mode?, atRest: Bool)?
        /// What each cell held before this device first counted in it, for `rollBack`.
        var before: [HeatGrid.Cell: (counts: Counts?, person: String?)] = [:]

        public init(person: String, maxDwellStepSeconds: Double = 900) {
            (self.person, self.maxDwellStepSeconds) = (person, maxDwellStepSeconds)
        }
    }

    /// Adds the next fixes of the device `adding` follows, in time order; `modes` gives theirs.
    public mutating func add(_ points: [TrackPoint], modes: FixModes, to adding: inout Adding) {
        for index in points.indices {
            let state = modes.state(at: index)
            if let pending = adding.pending { count(pending, next: (points[index].timeSeconds, state.atRest), &adding) }
            adding.pending = (points[index], state.mode, state.atRest)
        }
    }

    /// Counts the device's last fix and stores what it left pending.
    public mutating func finish(_ adding: inout Adding) {
        if let pending = adding.pending { count(pending, next: nil, &adding) }
        adding.pending = nil
        if let (previous, counts) = adding.run { cells[previous] = counts }
        adding.run = nil
    }

    /// Takes back everything the device `adding` follows has counted, as if it had never been
    /// added (a stream of its fixes turned out not to be in time order).
    public mutating func rollBack(_ adding: inout Adding) {
        for (cell, before) in adding.before {
            cells[cell] = before.counts
            lastPerson[cell] = before.person
        }
        adding = Adding(person: adding.person, maxDwellStepSeconds: adding.maxDwellStepSeconds)
    }

    private mutating func count(
        _ fix: (point: TrackPoint, mode: Mode?, atRest: Bool), next: (seconds: Double, atRest: Bool)?, _ adding: inout Adding
    ) {
        let point = fix.point
        guard filter.admits(seconds: point.timeSeconds, mode: fix.mode) else { return }
        let cell = grid.cell(latitudeDegrees: point.latitudeDegrees, longitudeDegrees: point.longitudeDegrees)
        if adding.run?.cell != cell {
            if let (previous, counts) = adding.run { cells[previous] = counts }
            var counts = cells[cell] ?? Counts()
            if adding.seen.insert(cell).inserted {
                adding.before[cell] = (cells[cell], lastPerson[cell])
                counts.devices += 1
                if lastPerson[cell] != adding.person {
                    counts.persons += 1
                    lastPerson[cell] = adding.person
                }
            }
            adding.run = (cell, counts)
        }
        adding.run!.counts.fixes += 1
        if fix.atRest, let next, next.atRest {
            let step = next.seconds - point.timeSeconds
            if step <= adding.maxDwellStepSeconds { adding.run!.counts.dwellSeconds += step }
        }
    }

    /// Adds another map's counts (of other devices and other persons) to this one.
    public mutating func merge(_ other: HeatMap) {
        for (cell, counts) in other.cells {
            var merged = cells[cell] ?? Counts()
            merged.fixes += counts.fixes
            merged.devices += counts.devices
            merged.persons += counts.persons
            merged.dwellSeconds += counts.dwellSeconds
            cells[cell] = merged
        }
    }

    /// The cells that may be published: those seen by at least `minimumPersons` distinct
    /// persons (k-anonymity of places; a device without a named person is a person), sorted by
    /// cell; and how many were left out.
    public func published(minimumPersons k: Int) -> (cells: [(cell: HeatGrid.Cell, counts: Counts)], suppressed: Int) {
        let kept = cells.filter { $0.value.persons >= k }.map { (cell: $0.key, counts: $0.value) }.sorted { $0.cell < $1.cell }
        return (kept, cells.count - kept.count)
    }
}

/// Each fix's mode and whether it lies in a staypoint, from the stored staypoints and legs of
/// its device: in a staypoint a fix is `still` and at rest; in a leg it has the leg's mode;
/// elsewhere (a gap, a leg too short to keep) it has none.
public struct FixModes: Sendable {
    private var modes: [Mode?]
    private var atRest: [Bool]

    public init(track: DeviceTrack, staypoints: [(start: Double, end: Double)], legs: [(start: Double, end: Double, mode: Mode?)]) {
        self.init(points: track.points.array, staypoints: staypoints, legs: legs)
    }

    /// The same for `points` in time order: a track's, or a piece of one (each fix's state
    /// depends on its time alone).
    public init(points: [TrackPoint], staypoints: [(start: Double, end: Double)], legs: [(start: Double, end: Double, mode: Mode?)]) {
        let times = points.map(\.timeSeconds)
        modes = Array(repeating: nil, count: times.count)
        atRest = Array(repeating: false, count: times.count)
        for leg in legs { for index in Self.range(times, leg.start, leg.end) { modes[index] = leg.mode } }
        for stay in staypoints {
            for index in Self.range(times, stay.start, stay.end) {
                modes[index] = .still
                atRest[index] = true
            }
        }
    }

    func state(at index: Int) -> (mode: Mode?, atRest: Bool) { (modes[index], atRest[index]) }

    /// Indices of sorted `times` within [start, end].
    private static func range(_ times: [Double], _ start: Double, _ end: Double) -> Range<Int> {
        let low = times.insertionIndex(of: start)
        var upper = low
        while upper < times.count && times[upper] <= end { upper += 1 }
        return low..<upper
    }
}

extension HeatMap {
    /// The order maps are written and shown in: "all" first, then the modes in `Mode`'s order,
    /// then any other name; ties by name.
    public static func runsBefore(_ a: String, _ b: String) -> Bool { (rank(a), a) < (rank(b), b) }

    private static func rank(_ name: String) -> Int {
        name == "all" ? -1 : Mode(rawValue: name).flatMap { Mode.allCases.firstIndex(of: $0) } ?? Mode.allCases.count
    }
}
