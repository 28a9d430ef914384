import CFreeType
import Foundation

/// Draws text into a `Raster` with FreeType and the DejaVu Sans font (Debian's
/// fonts-dejavu-core). Without the font, labels are left out and `isAvailable` is false.
final class TextRenderer {
    static let fontPaths = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/TTF/DejaVuSans.ttf", "/usr/share/fonts/dejavu/DejaVuSans.ttf"
    ]

    private var library: FT_Library?
    private var face: FT_Face?

    init() {
        guard FT_Init_FreeType(&library) == 0 else { return }
        for path in Self.fontPaths where FileManager.default.fileExists(atPath: path) {
            if FT_New_Face(library, path, 0, &face) == 0 { break }
        }
    }

    deinit {
        if let face { FT_Done_Face(face) }
        if let library { FT_Done_FreeType(library) }
    }

    var isAvailable: Bool { face != nil }

    /// Width of `text` in pixels at `size`.
    func width(_ text: String, size: Int) -> Int {
        guard let face, FT_Set_Pixel_Sizes(face, 0, UInt32(size)) == 0 else { return 0 }
        var advance = 0
        for scalar in text.unicodeScalars where FT_Load_Char(face, FT_ULong(scalar.value), FT_Int32(FT_LOAD_DEFAULT)) == 0 {
            advance += Int(face.pointee.glyph.pointee.advance.x >> 6)
        }
        return advance
    }

    /// Draws `text` with its baseline at `y`, starting at `x`.
    func draw(_ text: String, x: Int, y: Int, size: Int, color: Raster.Color, into raster: inout Raster) {
        guard let face, FT_Set_Pixel_Sizes(face, 0, UInt32(size)) == 0 else { return }
        var penX = x
        for scalar in text.unicodeScalars {
            guard FT_Load_Char(face, FT_ULong(scalar.value), FT_Int32(FT_LOAD_RENDER)) == 0 else { continue }
            let glyph = face.pointee.glyph.pointee
            let bitmap = glyph.bitmap
            for row in 0..<Int(bitmap.rows) {
                for column in 0..<Int(bitmap.width) {
                    let coverage = bitmap.buffer[row * Int(bitmap.pitch) + column]
                    guard coverage > 0 else { continue }
                    raster.blend(
                        x: penX + Int(glyph.bitmap_left) + column, y: y - Int(glyph.bitmap_top) + row,
                        color, alpha: Double(coverage) / 255)
                }
            }
            penX += Int(glyph.advance.x >> 6)
        }
    }
}
