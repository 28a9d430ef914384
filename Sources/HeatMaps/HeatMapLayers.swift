import MobilityCore

/// The overall heat map and one per mode, filled one track at a time (the tracks of one person
/// one after another) and published under k persons: the single run's maps and a release
/// window's are the same code on different fixes.
public struct HeatMapLayers: Sendable {
    public let grid: HeatGrid
    public let filter: HeatMapFilter
    private var overall: HeatMap
    private var byMode: [Mode: HeatMap] = [:]

    public init(grid: HeatGrid, filter: HeatMapFilter) {
        (self.grid, self.filter) = (grid, filter)
        overall = HeatMap(grid: grid, filter: filter)
    }

    /// Adds `track` with the modes of its staypoints and legs; returns those modes and the
    /// per-mode maps it was added to. `calendar` is the device's local time, for the filter's
    /// dates, weekdays and hours (nil: the filter's own).
    @discardableResult
    public mutating func add(
        _ track: DeviceTrack, intervals: (stays: [(start: Double, end: Double)], legs: [(start: Double, end: Double, mode: Mode?)]),
        person: String, calendar: CalendarKeys? = nil
    ) -> (modes: FixModes, maps: [Mode]) {
        let modes = FixModes(track: track, staypoints: intervals.stays, legs: intervals.legs)
        overall.filter.calendar = calendar ?? filter.calendar
        overall.add(track, modes: modes, person: person)
        var maps: [Mode] = []
        for mode in Set(intervals.legs.compactMap(\.mode) + (intervals.stays.isEmpty ? [] : [.still])).sorted()
        where filter.modes?.contains(mode) ?? true {
            var map = byMode[mode] ?? HeatMap(grid: grid, filter: filter.only(mode))
            map.filter.calendar = calendar ?? filter.calendar
            map.add(track, modes: modes, person: person)
            byMode[mode] = map
            maps.append(mode)
        }
        return (modes, maps)
    }

    /// One device's unfiltered counts in one cell of one map: what runs over disjoint parts of
    /// a data set keep, so that they can be merged before k is applied.
    public struct DeviceCell: Sendable, Equatable {
        public var map: String, cellID: String, device: String, person: String, fixes: Int, dwellSeconds: Double
    }

    /// The cells of `track` alone (named `device`, carried by `person`) in the overall map and in
    /// each mode map `added` names (what `add` returned for it), unfiltered, in cell order per map.
    public func deviceCells(_ track: DeviceTrack, device: String, person: String, added: (modes: FixModes, maps: [Mode])) -> [DeviceCell] {
        let maps = [("all", filter)] + added.maps.map { ($0.rawValue, filter.only($0)) }
        return maps.flatMap { name, filter -> [DeviceCell] in
            var mine = HeatMap(grid: grid, filter: filter)
            mine.add(track, modes: added.modes, person: person)
            return mine.cells.sorted { $0.key < $1.key }.map {
                DeviceCell(
                    map: name, cellID: grid.id($0.key), device: device, person: person, fixes: $0.value.fixes,
                    dwellSeconds: $0.value.dwellSeconds)
            }
        }
    }

    /// Every map ("all" first, then the modes in order) with the cells k persons or more were
    /// in, and how many cells it suppressed.
    public func published(minimumPersons k: Int) -> [(
        name: String, cells: [(cell: HeatGrid.Cell, counts: HeatMap.Counts)], suppressed: Int
    )] {
        ([("all", overall)] + byMode.sorted(by: { $0.key < $1.key }).map { ($0.key.rawValue, $0.value) }).map { name, map in
            let (cells, suppressed) = map.published(minimumPersons: k)
            return (name, cells, suppressed)
        }
    }
}
