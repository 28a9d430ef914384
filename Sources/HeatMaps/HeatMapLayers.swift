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

    /// Adds `track` with the modes of its staypoints and legs. `calendar` is the device's local
    /// time, for the filter's dates, weekdays and hours (nil: the filter's own).
    public mutating func add(
        _ track: DeviceTrack, intervals: Intervals, person: String, calendar: CalendarKeys? = nil
    ) {
        var device = begin(intervals: intervals, device: track.device, person: person, calendar: calendar)
        add(track.points.array, to: &device)
        _ = finish(&device)
    }

    public typealias Intervals = (stays: [(start: Double, end: Double)], legs: [(start: Double, end: Double, mode: Mode?)])

    /// One device being added piece by piece (`begin`, `add(_:to:)`, `finish`), so that its
    /// fixes need never be held at once: the overall map and the map of each mode its
    /// intervals hold follow it, and with `keepingCells` its own unfiltered counts too.
    public struct Device: Sendable {
        let intervals: Intervals
        let name: String, person: String
        /// The mode maps it is added to.
        let modes: [Mode]
        var overall: HeatMap.Adding
        var byMode: [HeatMap.Adding]
        /// Its own counts per map ("all", then `modes`), unfiltered, when its cells are kept:
        /// the maps' names, the maps, and how each is being added to (apart, so that a map and
        /// its adding are two accesses, with no copy of the map).
        let ownNames: [String]
        var ownMaps: [HeatMap]
        var ownAdding: [HeatMap.Adding]
    }

    /// Starts adding a device (named `device`, carried by `person`) with the modes of its
    /// staypoints and legs; `calendar` is its local time, for the filter's dates, weekdays and
    /// hours (nil: the filter's own). With `keepingCells`, `finish` returns its own cells.
    public mutating func begin(
        intervals: Intervals, device: String, person: String, calendar: CalendarKeys? = nil, keepingCells: Bool = false
    ) -> Device {
        overall.filter.calendar = calendar ?? filter.calendar
        let modes = Set(intervals.legs.compactMap(\.mode) + (intervals.stays.isEmpty ? [] : [.still])).sorted()
            .filter { filter.modes?.contains($0) ?? true }
        for mode in modes {
            var map = byMode[mode] ?? HeatMap(grid: grid, filter: filter.only(mode))
            map.filter.calendar = calendar ?? filter.calendar
            byMode[mode] = map
        }
        let adding = HeatMap.Adding(person: person)
        let own = keepingCells ? [("all", filter)] + modes.map { ($0.rawValue, filter.only($0)) } : []
        return Device(
            intervals: intervals, name: device, person: person, modes: modes, overall: adding,
            byMode: Array(repeating: adding, count: modes.count), ownNames: own.map(\.0),
            ownMaps: own.map { HeatMap(grid: grid, filter: $0.1) }, ownAdding: Array(repeating: adding, count: own.count))
    }

    /// Adds the device's next fixes, in time order.
    public mutating func add(_ points: [TrackPoint], to device: inout Device) {
        let fixModes = FixModes(points: points, staypoints: device.intervals.stays, legs: device.intervals.legs)
        overall.add(points, modes: fixModes, to: &device.overall)
        for (index, mode) in device.modes.enumerated() { byMode[mode]!.add(points, modes: fixModes, to: &device.byMode[index]) }
        for index in device.ownMaps.indices { device.ownMaps[index].add(points, modes: fixModes, to: &device.ownAdding[index]) }
    }

    /// Takes back what the device has counted so far; it starts again from its first fix.
    public mutating func rollBack(_ device: inout Device) {
        overall.rollBack(&device.overall)
        for (index, mode) in device.modes.enumerated() { byMode[mode]!.rollBack(&device.byMode[index]) }
        for index in device.ownMaps.indices {
            device.ownMaps[index] = HeatMap(grid: grid, filter: device.ownMaps[index].filter)
            device.ownAdding[index] = HeatMap.Adding(person: device.person)
        }
    }

    /// Ends the device; returns its own cells in each map (cell order per map) when kept.
    public mutating func finish(_ device: inout Device) -> [DeviceCell] {
        overall.finish(&device.overall)
        for (index, mode) in device.modes.enumerated() { byMode[mode]!.finish(&device.byMode[index]) }
        var cells: [DeviceCell] = []
        for index in device.ownMaps.indices {
            device.ownMaps[index].finish(&device.ownAdding[index])
            cells += device.ownMaps[index].cells.sorted { $0.key < $1.key }.map {
                DeviceCell(
                    map: device.ownNames[index], cellID: grid.id($0.key), device: device.name, person: device.person, fixes: $0.value.fixes,
                    dwellSeconds: $0.value.dwellSeconds)
            }
        }
        return cells
    }

    /// One device's unfiltered counts in one cell of one map: what runs over disjoint parts of
    /// a data set keep, so that they can be merged before k is applied.
    public struct DeviceCell: Sendable, Equatable {
        public var map: String, cellID: String, device: String, person: String, fixes: Int, dwellSeconds: Double
    }

    /// Whether a map is published at all: the overall one always, a mode's only when some cell
    /// of it reached k. A mode's map with no cell would say that fewer than k persons used the
    /// mode (which the modal split shows as `other`), and its count of suppressed cells how many
    /// cells their fixes were in.
    public static func isPublished(map: String, cells: Int) -> Bool { map == "all" || cells > 0 }

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
