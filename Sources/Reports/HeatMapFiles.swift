import Foundation
import HeatMaps
import MobilityCore
import Store

/// Writes heat maps as `heatmap.csv` (every map's published cells, one row per map and
/// cell), `heatmap.geojson` (the overall map's cells as polygons, for QGIS) and one PNG per
/// map (`heatmap.png`, `heatmap-<mode>.png`).
public struct HeatMapFiles {
    public var maps: [PipelineStore.HeatMapRows]
    public var grid: HeatGrid

    public init(maps: [PipelineStore.HeatMapRows], grid: HeatGrid) {
        self.maps = maps
        self.grid = grid
    }

    public static func imageName(_ map: String) -> String { map == "all" ? "heatmap.png" : "heatmap-\(map).png" }

    /// Paths written.
    public func write(to folder: String, cells: [String: [(cell: HeatGrid.Cell, counts: HeatMap.Counts)]]) throws -> [String] {
        func path(_ name: String) -> String { (folder as NSString).appendingPathComponent(name) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var csv = CSVWriter(columns: ["map", "cell_id", "center_lat_deg", "center_lon_deg", "south_deg", "west_deg", "north_deg", "east_deg",
                                     "fixes", "devices", "persons", "dwell_s"])
        for map in maps {
            for c in map.cells {
                csv.append([map.map, c.id, Self.degrees(c.center.latitude), Self.degrees(c.center.longitude), Self.degrees(c.bounds.south),
                            Self.degrees(c.bounds.west), Self.degrees(c.bounds.north), Self.degrees(c.bounds.east),
                            String(c.fixes), String(c.devices), String(c.persons), String(format: "%.0f", c.dwellSeconds)])
            }
        }
        try csv.write(to: path("heatmap.csv"))
        var written = [path("heatmap.csv")]
        if let overall = maps.first(where: { $0.map == "all" }) {
            try Data(geojson(overall).utf8).write(to: URL(fileURLWithPath: path("heatmap.geojson")), options: .atomic)
            written.append(path("heatmap.geojson"))
        }
        for map in maps {
            let title = map.map == "all" ? "Where devices were: all modes" : "Where devices were: \(map.map)"
            let subtitle = "\(Int(map.cellMeters)) m cells, \(map.filter)\nk = \(map.minimumDevices): \(map.cells.count) cells shown, "
                + "\(map.suppressed) seen by fewer persons suppressed"
            let image = HeatMapImage(grid: grid, cells: cells[map.map] ?? [], title: title, subtitle: subtitle).render()
            let file = path(Self.imageName(map.map))
            try image.writePNG(to: file + ".partial")
            guard rename(file + ".partial", file) == 0 else { throw Raster.WriteError(description: "cannot move \(file).partial into place") }
            written.append(file)
        }
        return written
    }

    private func geojson(_ map: PipelineStore.HeatMapRows) -> String {
        let maxFixes = Double(map.cells.map(\.fixes).max() ?? 1)
        let features = map.cells.map { c -> String in
            let b = c.bounds
            let ring = [(b.west, b.south), (b.east, b.south), (b.east, b.north), (b.west, b.north), (b.west, b.south)]
                .map { "[\(Self.degrees($0.0)),\(Self.degrees($0.1))]" }.joined(separator: ",")
            let fraction = maxFixes > 1 ? log(Double(c.fixes)) / log(maxFixes) : 1
            return #"{"type":"Feature","id":"\#(c.id)","properties":{"cell_id":"\#(c.id)","fixes":\#(c.fixes),"devices":\#(c.devices),"persons":\#(c.persons),"#
                + #""dwell_s":\#(Int(c.dwellSeconds.rounded())),"fill":"\#(ColorRamp.hex(fraction))","fill-opacity":0.7,"stroke-width":0},"#
                + #""geometry":{"type":"Polygon","coordinates":[[\#(ring)]]}}"#
        }
        return "{\"type\":\"FeatureCollection\",\"name\":\"heatmap\",\"features\":[\n" + features.joined(separator: ",\n") + "\n]}\n"
    }

    static func degrees(_ value: Double) -> String { String(format: "%.6f", value) }
}
