import Foundation
import HeatMaps
import MobilityCore
import Store

/// Writes heat maps as `heatmap.csv` (every map's published cells, one row per map and
/// cell), and per map a GeoJSON of its cells as polygons, for QGIS (`heatmap.geojson`,
/// `heatmap-<mode>.geojson`) and a PNG (`heatmap.png`, `heatmap-<mode>.png`).
public struct HeatMapFiles {
    public var maps: [PipelineStore.HeatMapRows]
    public var grid: HeatGrid

    public init(maps: [PipelineStore.HeatMapRows], grid: HeatGrid) {
        self.maps = maps
        self.grid = grid
    }

    public static func imageName(_ map: String) -> String { map == "all" ? "heatmap.png" : "heatmap-\(map).png" }
    public static func geoJSONName(_ map: String) -> String { map == "all" ? "heatmap.geojson" : "heatmap-\(map).geojson" }

    /// Paths written: the maps that are published (`HeatMapLayers.isPublished`); an earlier
    /// run's files of any other map are removed.
    public func write(to folder: String, cells: [String: [(cell: HeatGrid.Cell, counts: HeatMap.Counts)]]) throws -> [String] {
        let maps = maps.filter { HeatMapLayers.isPublished(map: $0.map, cells: $0.cells.count) }
        func path(_ name: String) -> String { (folder as NSString).appendingPathComponent(name) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var csv = CSVWriter(columns: OutputSchema.heatMap.names)
        for map in maps {
            for c in map.cells {
                csv.append([
                    map.map, c.id, Self.degrees(c.center.latitude), Self.degrees(c.center.longitude), Self.degrees(c.bounds.south),
                    Self.degrees(c.bounds.west), Self.degrees(c.bounds.north), Self.degrees(c.bounds.east),
                    String(c.fixes), String(c.devices), String(c.persons), FixedPoint.printf(c.dwellSeconds, digits: 0)
                ])
            }
        }
        try csv.write(to: path("heatmap.csv"))
        var written = [path("heatmap.csv")]
        for map in maps { // heatmap.geojson (all modes), heatmap-<mode>.geojson, as the PNGs
            let file = path(Self.geoJSONName(map.map))
            try Data(geojson(map).utf8).writeThroughPartial(to: URL(fileURLWithPath: file))
            written.append(file)
        }
        // One image per map and region (`HeatRegions`): recordings from several cities give one
        // image per city, each at its own scale.
        let regions = HeatRegions(cells: cells.values.flatMap { $0.map(\.cell) }, grid: grid)
        let region = regions.index()
        for map in maps {
            let title = map.map == "all" ? "Where devices were: all modes" : "Where devices were: \(map.map)"
            let subtitle =
                "\(Int(map.cellMeters)) m cells, \(map.filter)\nk = \(map.minimumPersons): \(map.cells.count) cells shown, "
                + "\(map.suppressed) seen by fewer persons suppressed"
            let mine = cells[map.map] ?? []
            for number in 0..<max(1, regions.regions.count) {
                let shown = regions.regions.count > 1 ? mine.filter { region[$0.cell] == number } : mine
                if number > 0, shown.isEmpty { continue }
                // Several regions: a shorter title that says which (the image is as wide as its region).
                let titled =
                    regions.regions.count > 1
                    ? (map.map == "all" ? "All modes" : map.map) + ": region \(number + 1) of \(regions.regions.count), "
                        + HeatRegions.place(regions.regions[number], grid: grid)
                    : title
                let counted = regions.regions.count > 1 ? subtitle + " (\(shown.count) in this region)" : subtitle
                let image = HeatMapImage(grid: grid, cells: shown, title: titled, subtitle: counted).render()
                let file = path(Self.imageName(map.map, region: number))
                try image.writePNG(to: file + ".partial")
                guard rename(file + ".partial", file) == 0 else {
                    throw PipelineError(.cannotWrite, "cannot move \(file).partial into place")
                }
                written.append(file)
            }
        }
        // Maps and region images of an earlier run that this one did not draw would be shown as current.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        where name.hasPrefix("heatmap-") && (name.hasSuffix(".png") || name.hasSuffix(".geojson")) && !written.contains(path(name)) {
            try FileManager.default.removeItem(atPath: path(name))
        }
        return written
    }

    /// `heatmap.png`, `heatmap-<mode>.png` for the first region (the only one, mostly);
    /// `heatmap-region-2.png`, `heatmap-<mode>-region-2.png` … for the others.
    public static func imageName(_ map: String, region: Int) -> String {
        region == 0 ? imageName(map) : (map == "all" ? "heatmap" : "heatmap-\(map)") + "-region-\(region + 1).png"
    }

    private func geojson(_ map: PipelineStore.HeatMapRows) -> String {
        let maxFixes = Double(map.cells.map(\.fixes).max() ?? 1)
        let features = map.cells.map { c -> String in
            let b = c.bounds
            let ring = [(b.west, b.south), (b.east, b.south), (b.east, b.north), (b.west, b.north), (b.west, b.south)]
                .map { "[\(Self.degrees($0.0)),\(Self.degrees($0.1))]" }.joined(separator: ",")
            let fraction = maxFixes > 1 ? log(Double(c.fixes)) / log(maxFixes) : 1
            return
                #"{"type":"Feature","id":"\#(c.id)","properties":{"cell_id":"\#(c.id)","fixes":\#(c.fixes),"devices":\#(c.devices),"persons":\#(c.persons),"#
                + #""dwell_s":\#(Int(c.dwellSeconds.rounded())),"fill":"\#(ColorRamp.hex(fraction))","fill-opacity":0.7,"stroke-width":0},"#
                + #""geometry":{"type":"Polygon","coordinates":[[\#(ring)]]}}"#
        }
        let name = map.map == "all" ? "heatmap" : "heatmap-" + map.map
        return "{\"type\":\"FeatureCollection\",\"name\":\"\(name)\",\"features\":[\n" + features.joined(separator: ",\n") + "\n]}\n"
    }

    static func degrees(_ value: Double) -> String { FixedPoint.printf(value, digits: 6) }
}
