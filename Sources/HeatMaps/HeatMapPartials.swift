import MobilityCore

/// A distributed run's part's heat-map groups, before the merge: per map and cell, the fixes
/// and devices of the part's devices, their persons by name (a person may have devices in two
/// parts) and their dwell seconds in device order; and each map's settings. The reducer merges
/// every part's (`PartialTable.Merge`), and `pipeline publish --reduced` applies k to the
/// merged counts (`HeatMap(grid:cells:)`, `published`), so k counts persons over the data set,
/// never over one part.
public struct HeatMapPartials: Sendable {
    /// A map's settings, the same in every part.
    public struct Map: Sendable {
        public var name: String, cellMeters: Double, minimumPersons: Int, filter: String
        public init(name: String, cellMeters: Double, minimumPersons: Int, filter: String) {
            (self.name, self.cellMeters, self.minimumPersons, self.filter) = (name, cellMeters, minimumPersons, filter)
        }
    }

    private struct Cell {
        var fixes = 0, devices: Set<String> = [], persons: Set<String> = [], dwells: [(device: String, seconds: Double)] = []
    }

    private var cells: [[String]: Cell] = [:]

    public init() {}

    /// The partial groups of `cells` (every device's of one part).
    public init(_ cells: [HeatMapLayers.DeviceCell]) {
        for cell in cells {
            add(
                map: cell.map, cellID: cell.cellID, device: cell.device, person: cell.person, fixes: cell.fixes,
                dwellSeconds: cell.dwellSeconds)
        }
    }

    /// One device's unfiltered counts in one cell of one map.
    public mutating func add(map: String, cellID: String, device: String, person: String, fixes: Int, dwellSeconds: Double) {
        var cell = cells[[map, cellID]] ?? Cell()
        cell.fixes += fixes
        cell.devices.insert(device)
        cell.persons.insert(person)
        cell.dwells.append((device, dwellSeconds))
        cells[[map, cellID]] = cell
    }

    /// `heatmaps` (each map's settings) and `heat_cells`. A cell of the overall map also says
    /// whether this part alone would have published it (its persons here reach k): the
    /// negative control of applying k per part, which the merge must not do.
    public func tables(maps: [Map]) -> [PartialTable] {
        var settings = Self.mapSchema
        for map in maps {
            settings.append([.text(map.name), .number(map.cellMeters), .integer(map.minimumPersons), .text(map.filter)])
        }
        let k = Dictionary(maps.map { ($0.name, $0.minimumPersons) }, uniquingKeysWith: { first, _ in first })
        var found = Self.cellSchema
        for (key, cell) in cells {
            // Device order (as bytes), as the device cells are stored.
            let dwells = cell.dwells.sorted { Array($0.device.utf8).lexicographicallyPrecedes(Array($1.device.utf8)) }.map(\.seconds)
            let alone = key[0] == "all" && k[key[0]].map { cell.persons.count >= $0 } == true
            found.append([
                .text(key[0]), .text(key[1]), .integer(cell.fixes), .integer(cell.devices.count), .names(cell.persons), .numbers(dwells),
                .flag(alone)
            ])
        }
        return [settings, found]
    }

    /// `heatmaps` and `heat_cells` without rows: their columns and how each merges.
    public static let mapSchema = PartialTable(
        name: "heatmaps", columns: [.init("heat_map", .key), .init("cell_m", .same), .init("min_devices", .same), .init("filter", .same)])
    public static let cellSchema = PartialTable(
        name: "heat_cells",
        columns: [
            .init("heat_map", .key), .init("cell_id", .key), .init("fixes", .sum), .init("devices", .sum), .init("persons", .distinctCount),
            .init("dwell_s", .orderedSum), .init("part_alone_meets_k", .any)
        ])
}
