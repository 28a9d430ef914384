import Foundation

/// The IANA time zone of a place on Earth, from the zones' borders: timezone-boundary-builder's
/// polygons with the oceans' nautical zones (`Etc/GMT±N`), ODbL 1.0, simplified to about 50 m
/// by `scripts/dev/zone_boundaries.py` into `models/time-zones.bin` (notice in `models/time-zones.NOTICE`).
///
/// Every point lies in one zone: land zones reach over their territorial waters, the nautical
/// zones fill the seas between. A point within the simplification's tolerance of a border may
/// come out as the neighbour's; one in no polygon (an islet under the tolerance) takes the zone
/// of the nearest border. Where the source's polygons of two zones overlap (the West Bank's
/// `Asia/Hebron` and `Asia/Jerusalem`), the polygon of the smaller bounding box wins.
///
/// Our own reader rather than a geometry library: the lookup is a point-in-polygon test over a
/// 1° grid of candidates, a hundred lines, and the file a compact delta-coded form (5 MB against
/// the source's 32 MB) that no library reads.
public final class ZoneBoundaries: Sendable {
    /// Where the polygons come from (release, package, tolerance), as the file says.
    public let source: String
    /// Every zone the file names.
    public let zones: [String]
    private let polygons: [Polygon]
    /// For each 1° cell (row by latitude from -90, column by longitude from -180), the polygons
    /// whose bounding box meets it, smallest box first.
    private let cells: [[Int32]]

    struct Polygon: Sendable {
        var zone: Int
        /// Each ring's vertices, longitude and latitude alternating, units of 1e-5 degree.
        var rings: [[Int32]]
        var minX: Int32, minY: Int32, maxX: Int32, maxY: Int32
    }

    static let unit = 1e-5

    /// Reads a boundary file; a file that is not one is `modelUnreadable` naming it.
    public convenience init(contentsOf path: String) throws {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe) } catch {
            throw PipelineError(
                .modelMissing, path: path, reason: "the time-zone boundaries cannot be read (\(error.localizedDescription))")
        }
        try self.init(data: data, path: path)
    }

    public init(data: Data, path: String = "time-zones.bin") throws {
        var reader = Reader(bytes: [UInt8](data))
        func fail(_ reason: String) -> PipelineError {
            PipelineError(.modelUnreadable, path: path, reason: "not a time-zone boundary file of this version: \(reason)")
        }
        guard reader.bytes.starts(with: Array("MPTZ".utf8)) else { throw fail("it does not begin with MPTZ") }
        reader.offset = 4
        guard try reader.byte() == 1 else { throw fail("format version is not 1") }
        source = try reader.text()
        zones = try (0..<reader.varint()).map { _ in try reader.text() }
        var polygons: [Polygon] = []
        for _ in 0..<(try reader.varint()) {
            let zone = try reader.varint()
            guard zone < zones.count else { throw fail("a polygon names zone \(zone) of \(zones.count)") }
            var polygon = Polygon(zone: zone, rings: [], minX: .max, minY: .max, maxX: .min, maxY: .min)
            for _ in 0..<(try reader.varint()) {
                let count = try reader.varint()
                var ring = [Int32](repeating: 0, count: 2 * count)
                var x: Int64 = 0, y: Int64 = 0
                for index in 0..<count {
                    x += try reader.signed()
                    y += try reader.signed()
                    guard abs(x) <= 18_100_000, abs(y) <= 9_100_000 else { throw fail("a vertex lies off the globe") }
                    ring[2 * index] = Int32(x)
                    ring[2 * index + 1] = Int32(y)
                    polygon.minX = min(polygon.minX, Int32(x))
                    polygon.maxX = max(polygon.maxX, Int32(x))
                    polygon.minY = min(polygon.minY, Int32(y))
                    polygon.maxY = max(polygon.maxY, Int32(y))
                }
                polygon.rings.append(ring)
            }
            if !polygon.rings.isEmpty { polygons.append(polygon) }
        }
        guard reader.offset == reader.bytes.count else { throw fail("\(reader.bytes.count - reader.offset) bytes after the last polygon") }
        var cells = [[Int32]](repeating: [], count: 180 * 360)
        let area = { (p: Polygon) in Double(p.maxX - p.minX) * Double(p.maxY - p.minY) }
        for index in polygons.indices.sorted(by: { area(polygons[$0]) < area(polygons[$1]) }) {
            let polygon = polygons[index]
            for row in Self.row(polygon.minY)...Self.row(polygon.maxY) {
                for column in Self.column(polygon.minX)...Self.column(polygon.maxX) { cells[row * 360 + column].append(Int32(index)) }
            }
        }
        (self.polygons, self.cells) = (polygons, cells)
    }

    private static func row(_ y: Int32) -> Int { min(179, max(0, Int(floor(Double(y) * unit + 90)))) }
    private static func column(_ x: Int32) -> Int { min(359, max(0, Int(floor(Double(x) * unit + 180)))) }

    /// The zone the point lies in.
    public func zone(latitude: Double, longitude: Double) -> String {
        let x = Int32((max(-180, min(180, longitude)) / Self.unit).rounded())
        let y = Int32((max(-90, min(90, latitude)) / Self.unit).rounded())
        let candidates = cells[Self.row(y) * 360 + Self.column(x)]
        for index in candidates {
            let polygon = polygons[Int(index)]
            guard x >= polygon.minX, x <= polygon.maxX, y >= polygon.minY, y <= polygon.maxY else { continue }
            if Self.contains(polygon, x: x, y: y) { return zones[polygon.zone] }
        }
        // In no polygon: the zone of the nearest edge among the cell's polygons.
        var best = (zone: "Etc/GMT", squared: Double.infinity)
        for index in candidates {
            let polygon = polygons[Int(index)]
            let squared = Self.squaredDistance(polygon, x: Double(x), y: Double(y), scale: cos(latitude * .pi / 180))
            if squared < best.squared { best = (zones[polygon.zone], squared) }
        }
        return best.squared.isFinite ? best.zone : Self.nautical(longitude: longitude)
    }

    /// The nautical zone of a longitude: 15° bands centred on multiples of 15°, `Etc/GMT-1` east
    /// of 7.5° E (the tz database's POSIX-style sign).
    static func nautical(longitude: Double) -> String {
        let hours = Int((longitude / 15).rounded())
        return hours == 0 ? "Etc/GMT" : "Etc/GMT\(hours > 0 ? "-" : "+")\(abs(hours))"
    }

    /// Even–odd crossing over every ring, so a hole (an enclave) is outside.
    private static func contains(_ polygon: Polygon, x: Int32, y: Int32) -> Bool {
        var inside = false
        let px = Int64(x), py = Int64(y)
        for ring in polygon.rings {
            let count = ring.count / 2
            var j = count - 1
            for i in 0..<count {
                let xi = Int64(ring[2 * i]), yi = Int64(ring[2 * i + 1])
                let xj = Int64(ring[2 * j]), yj = Int64(ring[2 * j + 1])
                if (yi > py) != (yj > py) {
                    // x of the edge at py, compared without division: (px - xi)(yj - yi) < (xj - xi)(py - yi)
                    let left = (px - xi) * (yj - yi), right = (xj - xi) * (py - yi)
                    if yj > yi ? left < right : left > right { inside.toggle() }
                }
                j = i
            }
        }
        return inside
    }

    private static func squaredDistance(_ polygon: Polygon, x: Double, y: Double, scale: Double) -> Double {
        var best = Double.infinity
        for ring in polygon.rings {
            let count = ring.count / 2
            var j = count - 1
            for i in 0..<count {
                let ax = Double(ring[2 * j]) * scale, ay = Double(ring[2 * j + 1])
                let bx = Double(ring[2 * i]) * scale, by = Double(ring[2 * i + 1])
                let (dx, dy) = (bx - ax, by - ay)
                let length = dx * dx + dy * dy
                let t = length == 0 ? 0 : max(0, min(1, ((x * scale - ax) * dx + (y - ay) * dy) / length))
                let (ex, ey) = (ax + t * dx - x * scale, ay + t * dy - y)
                best = min(best, ex * ex + ey * ey)
                j = i
            }
        }
        return best
    }

    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        mutating func byte() throws -> UInt8 {
            guard offset < bytes.count else { throw PipelineError(.modelUnreadable, "the time-zone boundary file ends early") }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func varint() throws -> Int {
            var value: UInt64 = 0, shift: UInt64 = 0
            while true {
                let next = try byte()
                guard shift < 63 else { throw PipelineError(.modelUnreadable, "the time-zone boundary file holds a number too long") }
                value |= UInt64(next & 0x7F) << shift
                if next & 0x80 == 0 { return Int(truncatingIfNeeded: value) }
                shift += 7
            }
        }

        mutating func signed() throws -> Int64 {
            let raw = UInt64(truncatingIfNeeded: try varint())
            return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
        }

        mutating func text() throws -> String {
            let length = try varint()
            guard length >= 0, offset + length <= bytes.count else {
                throw PipelineError(.modelUnreadable, "the time-zone boundary file ends early")
            }
            defer { offset += length }
            return String(decoding: bytes[offset..<offset + length], as: UTF8.self)
        }
    }
}
