import Foundation

/// Groups published heat-map cells into regions, so that recordings from several cities are
/// drawn one city to an image, each at a scale that shows its streets, instead of one image
/// spanning continents. Cells are binned on a coarse grid of the same global kind
/// (`HeatGrid`, `regionMeters` = 25 km); bins that touch (rows and columns one apart) form one
/// region. Regions come largest first (most cells; then north to south, west to east), so
/// region 1 is the same in every run of the same data.
public struct HeatRegions: Sendable {
    public static let regionMeters = 25_000.0

    /// Each region's cells, in cell order.
    public private(set) var regions: [[HeatGrid.Cell]] = []

    public init(cells: [HeatGrid.Cell], grid: HeatGrid, regionMeters: Double = Self.regionMeters) {
        let coarse = HeatGrid(cellMeters: regionMeters)
        var bins: [HeatGrid.Cell: [HeatGrid.Cell]] = [:]
        for cell in Set(cells) {
            let centre = grid.centre(cell)
            bins[coarse.cell(latitudeDegrees: centre.latitude, longitudeDegrees: centre.longitude), default: []].append(cell)
        }
        // Connected components of the bins (8-neighbourhood), by a flood fill in bin order.
        var seen: Set<HeatGrid.Cell> = []
        for start in bins.keys.sorted() where !seen.contains(start) {
            var stack = [start], members: [HeatGrid.Cell] = []
            seen.insert(start)
            while let bin = stack.popLast() {
                members += bins[bin]!
                for dr: Int32 in -1...1 {
                    for dc: Int32 in -1...1 {
                        let next = HeatGrid.Cell(row: bin.row + dr, column: bin.column + dc)
                        if bins[next] != nil, !seen.contains(next) { seen.insert(next); stack.append(next) }
                    }
                }
            }
            regions.append(members.sorted())
        }
        regions.sort { a, b in
            a.count != b.count ? a.count > b.count : (-a[0].row, a[0].column) < (-b[0].row, b[0].column)
        }
    }

    /// The region of each cell (0 for the first).
    public func index() -> [HeatGrid.Cell: Int] {
        var index: [HeatGrid.Cell: Int] = [:]
        for (number, cells) in regions.enumerated() { for cell in cells { index[cell] = number } }
        return index
    }

    /// "48.86° N 2.35° E": the middle of a region's cells, for titles.
    public static func place(_ cells: [HeatGrid.Cell], grid: HeatGrid) -> String {
        let centres = cells.map(grid.centre)
        let lat = (centres.map(\.latitude).min()! + centres.map(\.latitude).max()!) / 2
        let lon = (centres.map(\.longitude).min()! + centres.map(\.longitude).max()!) / 2
        return String(format: "%.2f° %@ %.2f° %@", abs(lat), lat >= 0 ? "N" : "S", abs(lon), lon >= 0 ? "E" : "W")
    }
}
