import HeatMaps
import Testing

/// `HeatRegions` on cells with known places: cities apart are regions apart, a city spread
/// over several coarse bins is one.
@Suite struct HeatRegionsTests {
    let grid = HeatGrid(cellMeters: 100)

    func cells(_ latitude: Double, _ longitude: Double, count: Int, stepDegrees: Double = 0.002) -> [HeatGrid.Cell] {
        (0..<count).map { grid.cell(latitudeDegrees: latitude + Double($0) * stepDegrees, longitudeDegrees: longitude) }
    }

    @Test func citiesFarApartAreRegionsLargestFirst() {
        let paris = cells(48.85, 2.35, count: 30), beijing = cells(39.91, 116.31, count: 50), amsterdam = cells(52.37, 4.90, count: 10)
        let regions = HeatRegions(cells: paris + beijing + amsterdam, grid: grid)
        #expect(regions.regions.map(\.count) == [50, 30, 10])
        #expect(Set(regions.regions[0]) == Set(beijing) && Set(regions.regions[2]) == Set(amsterdam))
        #expect(HeatRegions.place(regions.regions[1], grid: grid).hasPrefix("48.8"))
        #expect(regions.index()[paris[0]] == 1)
    }

    @Test func oneCityAcrossCoarseBinsIsOneRegion() {
        // 60 km north to south in 500 m steps: several 25 km bins, each touching the next.
        let city = cells(48.5, 2.35, count: 120, stepDegrees: 0.0045)
        #expect(HeatRegions(cells: city, grid: grid).regions.count == 1)
    }
}
