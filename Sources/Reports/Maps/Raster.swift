import CPNG
import Foundation
import MobilityCore

/// An RGBA image in memory, drawn with rectangles, lines and text, written as PNG by libpng's
/// simplified API.
public struct Raster {
    public struct Color: Hashable, Sendable {
        public var r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255
        public init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) { (self.r, self.g, self.b, self.a) = (r, g, b, a) }
        public static let white = Color(255, 255, 255), black = Color(0, 0, 0), grey = Color(120, 120, 120)
        public static let lightGrey = Color(236, 236, 236)
    }

    public let width: Int, height: Int
    private(set) var pixels: [UInt8]

    public init(width: Int, height: Int, background: Color = .white) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 4)
        fill(x: 0, y: 0, width: width, height: height, background)
    }

    public subscript(x: Int, y: Int) -> Color {
        let i = (y * width + x) * 4
        return Color(pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }

    /// Blends `color` over the pixel with coverage `alpha` (0–1).
    mutating func blend(x: Int, y: Int, _ color: Color, alpha: Double = 1) {
        guard x >= 0, y >= 0, x < width, y < height, alpha > 0 else { return }
        let i = (y * width + x) * 4, a = min(1, alpha) * Double(color.a) / 255
        pixels[i] = UInt8((Double(color.r) * a + Double(pixels[i]) * (1 - a)).rounded())
        pixels[i + 1] = UInt8((Double(color.g) * a + Double(pixels[i + 1]) * (1 - a)).rounded())
        pixels[i + 2] = UInt8((Double(color.b) * a + Double(pixels[i + 2]) * (1 - a)).rounded())
        pixels[i + 3] = 255
    }

    public mutating func fill(x: Int, y: Int, width w: Int, height h: Int, _ color: Color) {
        for row in max(0, y)..<min(height, y + h) {
            for column in max(0, x)..<min(width, x + w) { blend(x: column, y: row, color) }
        }
    }

    /// A one-pixel rectangle outline.
    public mutating func stroke(x: Int, y: Int, width w: Int, height h: Int, _ color: Color) {
        fill(x: x, y: y, width: w, height: 1, color)
        fill(x: x, y: y + h - 1, width: w, height: 1, color)
        fill(x: x, y: y, width: 1, height: h, color)
        fill(x: x + w - 1, y: y, width: 1, height: h, color)
    }

    public func writePNG(to path: String) throws {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = CPNG_FORMAT_RGBA
        let ok = pixels.withUnsafeBytes { bytes in
            png_image_write_to_file(&image, path, 0, bytes.baseAddress, Int32(width * 4), nil)
        }
        guard ok != 0 else {
            let message = withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            png_image_free(&image)
            throw PipelineError(.cannotWrite, "cannot write \(path): \(message)")
        }
    }
}
