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
        let person = person ?? track.device
        var seen = Set<HeatGrid.Cell>()
        let points = track.points
        // Consecutive fixes mostly fall in one cell: its counts are kept here while they do and
        // stored when the cell changes, one lookup per run of fixes instead of three per fix
        // (the same sums, added in the same order).
        var run: (cell: HeatGrid.Cell, counts: Counts)?
        for index in points.indices {
            let point = points[index], state = modes.state(at: index)
            guard filter.admits(seconds: point.timeSeconds, mode: state.mode) else { continue }
            let cell = grid.cell(latitudeDegrees: point.latitudeDegrees, longitudeDegrees: point.longitudeDegrees)
            if run?.cell != cell {
                if let (previous, counts) = run { cells[previous] = counts }
                var counts = cells[cell] ?? Counts()
                if seen.insert(cell).inserted {
                    counts.devices += 1
                    if lastPerson[cell] != person { counts.persons += 1; lastPerson[cell] = person }
                }
                run = (cell, counts)
            }
            run!.counts.fixes += 1
            if state.atRest, index + 1 < points.count, modes.state(at: index + 1).atRest {
                let step = points[index + 1].timeSeconds - point.timeSeconds
                if step <= maxDwellStepSeconds { run!.counts.dwellSeconds += step }
            }
        }
        if let (previous, counts) = run { cells[previous] = counts }
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
        let times = track.points.map(\.timeSeconds)
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
