import Foundation

/// Reads the polygons of a GeoPackage geometry blob: the "GP" header of OGC 12-128r18 §2.1.3
/// (Table 6: magic, version, flags, `srs_id`, an envelope of 0/32/48/64 bytes as flag bits 1–3
/// say) followed by ISO Well-Known Binary (OGC 06-103r4 §8.2: a byte-order byte, a uint32
/// type, then the coordinates; types 3 Polygon and 6 MultiPolygon, with Z, M and ZM as 1003,
/// 2003, 3003 and the like, whose extra ordinates are skipped).
///
/// Written here: a zone layer needs only polygons, about a hundred lines, and no maintained
/// Swift package reads GeoPackage geometry.
public enum GeoPackageGeometry {
    /// The blob's SRS id and shape; nil for an empty geometry, another geometry type or bytes that
    /// are not a GeoPackage geometry.
    public static func polygons(_ blob: [UInt8]) -> (srsID: Int32, shape: Geofence.Shape)? {
        guard blob.count >= 8, blob[0] == 0x47, blob[1] == 0x50 else { return nil }
        let flags = blob[3]
        let headerLittle = flags & 1 == 1
        let envelopeBytes = [0, 32, 48, 48, 64][min(4, Int((flags >> 1) & 0b111))]
        if flags & 0b1_0000 != 0 { return nil } // the empty-geometry flag
        var reader = Reader(bytes: blob, offset: 4, little: headerLittle)
        guard let srsID = reader.uint32().map({ Int32(bitPattern: $0) }) else { return nil }
        reader.offset = 8 + envelopeBytes
        guard let shape = reader.geometry() else { return nil }
        return (srsID, shape)
    }

    struct Reader {
        var bytes: [UInt8], offset: Int, little: Bool

        mutating func uint32() -> UInt32? {
            guard offset + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for i in 0..<4 {
                let byte = UInt32(bytes[offset + (little ? i : 3 - i)])
                value |= byte << (8 * UInt32(i))
            }
            offset += 4
            return value
        }

        mutating func double() -> Double? {
            guard offset + 8 <= bytes.count else { return nil }
            var bits: UInt64 = 0
            for i in 0..<8 {
                let byte = UInt64(bytes[offset + (little ? i : 7 - i)])
                bits |= byte << (8 * UInt64(i))
            }
            offset += 8
            return Double(bitPattern: bits)
        }

        /// A byte-order byte and a type: (base type 1–7, ordinates per point).
        mutating func header() -> (type: UInt32, ordinates: Int)? {
            guard offset < bytes.count, bytes[offset] <= 1 else { return nil }
            little = bytes[offset] == 1
            offset += 1
            guard let code = uint32() else { return nil }
            let base = code % 1000
            let ordinates = [2, 3, 3, 4][Int(min(3, code / 1000))]
            return (base, ordinates)
        }

        mutating func geometry() -> Geofence.Shape? {
            guard let (type, ordinates) = header() else { return nil }
            switch type {
            case 3: return polygon(ordinates: ordinates).map { .polygon(rings: $0) }
            case 6:
                guard let count = uint32(), count > 0 else { return nil }
                var polygons: [[[GeoPoint]]] = []
                for _ in 0..<count {
                    guard let (inner, innerOrdinates) = header(), inner == 3, let rings = polygon(ordinates: innerOrdinates) else {
                        return nil
                    }
                    polygons.append(rings)
                }
                return .multiPolygon(polygons: polygons)
            default: return nil
            }
        }

        mutating func polygon(ordinates: Int) -> [[GeoPoint]]? {
            guard let ringCount = uint32(), ringCount > 0, ringCount < 1 << 24 else { return nil }
            var rings: [[GeoPoint]] = []
            for _ in 0..<ringCount {
                guard let pointCount = uint32(), pointCount >= 4, Int(pointCount) * ordinates * 8 <= bytes.count - offset else {
                    return nil
                }
                var ring: [GeoPoint] = []
                ring.reserveCapacity(Int(pointCount))
                for _ in 0..<pointCount {
                    guard let x = double(), let y = double() else { return nil }
                    for _ in 2..<ordinates { _ = double() }
                    ring.append(GeoPoint(longitudeDegrees: x, latitudeDegrees: y))
                }
                rings.append(ring)
            }
            return rings
        }
    }
}
