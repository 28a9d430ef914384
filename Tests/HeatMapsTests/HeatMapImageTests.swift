import CPNG
import Foundation
import HeatMaps
import Reports
import TestSupport
import Testing

@Suite struct HeatMapImageTests {
    /// Reads a PNG back with libpng's simplified API.
    func read(_ path: String) -> (width: Int, height: Int, pixels: [UInt8])? {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_file(&image, path) != 0 else { return nil }
        image.format = CPNG_FORMAT_RGBA
        var pixels = [UInt8](repeating: 0, count: Int(image.width * image.height * 4))
        guard png_image_finish_read(&image, nil, &pixels, 0, nil) != 0 else { return nil }
        return (Int(image.width), Int(image.height), pixels)
    }

    @Test func aRasterWritesAPNGThatReadsBack() throws {
        let folder = try TemporaryFolder()
        var raster = Raster(width: 7, height: 5)
        raster.fill(x: 2, y: 1, width: 3, height: 2, Raster.Color(10, 20, 30))
        try raster.writePNG(to: folder.file("r.png"))
        let image = try #require(read(folder.file("r.png")))
        #expect(image.width == 7 && image.height == 5)
        #expect(Array(image.pixels[(1 * 7 + 2) * 4..<(1 * 7 + 2) * 4 + 4]) == [10, 20, 30, 255])
        #expect(Array(image.pixels[0..<4]) == [255, 255, 255, 255])
    }

    @Test func theRampRunsFromDarkToBright() {
        let low = ColorRamp.color(0), high = ColorRamp.color(1)
        #expect(low == Raster.Color(68, 1, 84) && high == Raster.Color(253, 231, 37))
        #expect(ColorRamp.hex(1) == "#fde725" && ColorRamp.color(.nan) == low && ColorRamp.color(7) == high)
    }

    @Test func aHeatMapImageShowsItsCellsInRampColours() throws {
        let grid = HeatGrid(cellMeters: 100)
        let cells = (0..<20).map { i in
            (
                cell: grid.cell(latitudeDegrees: 48.85 + Double(i) * 0.001, longitudeDegrees: 2.35),
                counts: HeatMap.Counts(fixes: 1 + i * 10, devices: 3, dwellSeconds: 0)
            )
        }
        let raster = HeatMapImage(grid: grid, cells: cells, title: "t", subtitle: "s").render()
        #expect(raster.width > 300 && raster.height > 200)
        var rampColours = 0
        for y in 0..<raster.height { for x in 0..<raster.width where raster[x, y] == ColorRamp.color(1) { rampColours += 1 } }
        #expect(rampColours > 20, "the busiest cell is drawn in the top colour (and in the legend)")
        let empty = HeatMapImage(grid: grid, cells: [], title: "t", subtitle: "s").render()
        #expect(empty.width == 640)
    }
}
