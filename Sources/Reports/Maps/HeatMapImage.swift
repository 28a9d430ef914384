import Foundation
import HeatMaps

/// Draws a heat map's published cells as a PNG: cells coloured by fixes on a log scale, a
/// frame with latitude and longitude ticks, a scale bar, a colour legend, and a title that
/// states the cell size, k and how many cells were suppressed.
public struct HeatMapImage {
    public var grid: HeatGrid
    public var cells: [(cell: HeatGrid.Cell, counts: HeatMap.Counts)]
    public var title: String
    public var subtitle: String

    public init(grid: HeatGrid, cells: [(cell: HeatGrid.Cell, counts: HeatMap.Counts)], title: String, subtitle: String) {
        self.grid = grid
        self.cells = cells
        self.title = title
        self.subtitle = subtitle
    }

    static let margin = (left: 84, top: 76, right: 150, bottom: 64)
    static let mapMaximum = (width: 760, height: 620)

    public func render() -> Raster {
        let text = TextRenderer()
        guard !cells.isEmpty else {
            var raster = Raster(width: 640, height: 160)
            text.draw(title, x: 16, y: 30, size: 18, color: .black, into: &raster)
            text.draw("No cell was seen by enough devices to publish.", x: 16, y: 70, size: 14, color: .grey, into: &raster)
            for (line, text_) in subtitle.split(separator: "\n").enumerated() {
                text.draw(String(text_), x: 16, y: 96 + 16 * line, size: 12, color: .grey, into: &raster)
            }
            return raster
        }
        let bounds = cells.map { grid.bounds($0.cell) }
        var (south, north) = (bounds.map(\.south).min()!, bounds.map(\.north).max()!)
        var (west, east) = (bounds.map(\.west).min()!, bounds.map(\.east).max()!)
        let xScale = cos((south + north) / 2 * .pi / 180) * HeatGrid.metersPerDegree
        let extent = (x: (east - west) * xScale, y: (north - south) * HeatGrid.metersPerDegree)
        let metersPerPixel = max(extent.x / Double(Self.mapMaximum.width), extent.y / Double(Self.mapMaximum.height), grid.cellMeters / 24)
        let map = (
            width: max(460, Int((extent.x / metersPerPixel).rounded(.up))), height: max(300, Int((extent.y / metersPerPixel).rounded(.up)))
        )
        // Centre the cells when the map is larger than their extent, and label the whole map.
        let padX = (Double(map.width) * metersPerPixel - extent.x) / 2 / xScale
        let padY = (Double(map.height) * metersPerPixel - extent.y) / 2 / HeatGrid.metersPerDegree
        (west, east, south, north) = (west - padX, east + padX, south - padY, north + padY)
        let m = Self.margin
        var raster = Raster(width: m.left + map.width + m.right, height: m.top + map.height + m.bottom)
        raster.fill(x: m.left, y: m.top, width: map.width, height: map.height, .lightGrey)

        func px(_ longitude: Double) -> Double { Double(m.left) + (longitude - west) * xScale / metersPerPixel }
        func py(_ latitude: Double) -> Double { Double(m.top) + (north - latitude) * HeatGrid.metersPerDegree / metersPerPixel }
        let counts = cells.map { Double($0.counts.fixes) }
        let (low, high) = (log(counts.min()!), log(counts.max()!))
        for (entry, box) in zip(cells, bounds) {
            let fraction = high > low ? (log(Double(entry.counts.fixes)) - low) / (high - low) : 1
            let x0 = Int(px(box.west).rounded(.down)), x1 = max(x0 + 1, Int(px(box.east).rounded(.down)))
            let y0 = Int(py(box.north).rounded(.down)), y1 = max(y0 + 1, Int(py(box.south).rounded(.down)))
            raster.fill(x: x0, y: y0, width: x1 - x0, height: y1 - y0, ColorRamp.color(fraction))
        }
        raster.stroke(x: m.left - 1, y: m.top - 1, width: map.width + 2, height: map.height + 2, .grey)
        drawTicks(&raster, text, west: west, east: east, south: south, north: north, px: px, py: py, map: map)
        drawScaleBar(&raster, text, metersPerPixel: metersPerPixel, map: map)
        drawLegend(&raster, text, low: counts.min()!, high: counts.max()!, map: map)
        text.draw(title, x: m.left, y: 24, size: 18, color: .black, into: &raster)
        for (line, text_) in subtitle.split(separator: "\n").enumerated() {
            text.draw(String(text_), x: m.left, y: 46 + 16 * line, size: 12, color: .grey, into: &raster)
        }
        return raster
    }

    private func drawTicks(
        _ raster: inout Raster, _ text: TextRenderer, west: Double, east: Double, south: Double, north: Double,
        px: (Double) -> Double, py: (Double) -> Double, map: (width: Int, height: Int)
    ) {
        let m = Self.margin
        for i in 0...2 {
            let longitude = west + (east - west) * Double(i) / 2, x = Int(px(longitude))
            raster.fill(x: x, y: m.top + map.height, width: 1, height: 5, .grey)
            let label = Self.degrees(longitude, positive: "E", negative: "W")
            text.draw(label, x: x - text.width(label, size: 11) / 2, y: m.top + map.height + 18, size: 11, color: .black, into: &raster)
            let latitude = south + (north - south) * Double(i) / 2, y = Int(py(latitude))
            raster.fill(x: m.left - 6, y: y, width: 5, height: 1, .grey)
            let latitudeLabel = Self.degrees(latitude, positive: "N", negative: "S")
            text.draw(latitudeLabel, x: m.left - 8 - text.width(latitudeLabel, size: 11), y: y + 4, size: 11, color: .black, into: &raster)
        }
    }

    private func drawScaleBar(_ raster: inout Raster, _ text: TextRenderer, metersPerPixel: Double, map: (width: Int, height: Int)) {
        let target = Double(map.width) / 4 * metersPerPixel
        let nice = [50.0, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000].last { $0 <= target } ?? 50
        let length = Int((nice / metersPerPixel).rounded())
        let x = Self.margin.left, y = Self.margin.top + map.height + 40
        raster.fill(x: x, y: y, width: length, height: 4, .black)
        raster.fill(x: x, y: y - 4, width: 1, height: 8, .black)
        raster.fill(x: x + length - 1, y: y - 4, width: 1, height: 8, .black)
        let label = nice >= 1_000 ? "\(Int(nice / 1_000)) km" : "\(Int(nice)) m"
        text.draw(label, x: x + length + 8, y: y + 6, size: 12, color: .black, into: &raster)
    }

    private func drawLegend(_ raster: inout Raster, _ text: TextRenderer, low: Double, high: Double, map: (width: Int, height: Int)) {
        let x = Self.margin.left + map.width + 24, top = Self.margin.top + 20, height = min(220, map.height - 40)
        text.draw("fixes per cell", x: x, y: top - 8, size: 12, color: .black, into: &raster)
        for row in 0..<height {
            raster.fill(x: x, y: top + row, width: 18, height: 1, ColorRamp.color(1 - Double(row) / Double(max(1, height - 1))))
        }
        raster.stroke(x: x - 1, y: top - 1, width: 20, height: height + 2, .grey)
        let middle = (low * high).squareRoot()
        for (value, offset) in [(high, 0), (middle, height / 2), (low, height - 1)] {
            text.draw(Self.count(value), x: x + 26, y: top + offset + 4, size: 11, color: .black, into: &raster)
        }
        text.draw("(log scale)", x: x, y: top + height + 18, size: 11, color: .grey, into: &raster)
    }

    static func degrees(_ value: Double, positive: String, negative: String) -> String {
        String(format: "%.3f°%@", abs(value), value >= 0 ? positive : negative)
    }

    static func count(_ value: Double) -> String {
        value >= 10_000 ? String(format: "%.0fk", value / 1_000) : String(Int(value.rounded()))
    }
}
