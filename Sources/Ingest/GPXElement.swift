/// The GPX elements the reader acts on, recognised by local name (namespace prefix ignored).
///
/// Matching by local name is what lets files whose extensions use an undeclared prefix
/// (`<gpxtpx:hr>` without `xmlns:gpxtpx`) parse: expat runs without namespace processing, and
/// the prefix is dropped here.
enum GPXElement: UInt8 {
    case gpx, metadata, author, name, trk, trkseg, trkpt, rte, rtept, wpt
    case ele, time, hdop, pdop, speed, course, heartRate, cadence
    case other

    init(qualifiedName: UnsafePointer<CChar>) {
        var local = qualifiedName
        var cursor = qualifiedName
        while cursor.pointee != 0 {
            if cursor.pointee == 0x3A { local = cursor + 1 }
            cursor += 1
        }
        let length = cursor - local
        self = GPXElement.byName[GPXElement.key(local, length)] ?? .other
    }

    init(qualifiedName: UnsafeBufferPointer<UInt8>) {
        var localStart = 0
        for index in qualifiedName.indices where qualifiedName[index] == 0x3A { localStart = index + 1 }
        let local = UnsafeRawPointer(qualifiedName.baseAddress! + localStart).assumingMemoryBound(to: CChar.self)
        self = GPXElement.byName[GPXElement.key(local, qualifiedName.count - localStart)] ?? .other
    }

    /// FNV-1a of the local name: one pass, no allocation; 64 bits make a false match among
    /// these few names negligible.
    private static func key(_ name: UnsafePointer<CChar>, _ length: Int) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for i in 0..<length { hash = (hash ^ UInt64(UInt8(bitPattern: name[i]))) &* 0x100_0000_01b3 }
        return hash
    }

    private static let byName: [UInt64: GPXElement] = {
        let names: [(String, GPXElement)] = [
            ("gpx", .gpx), ("metadata", .metadata), ("author", .author), ("name", .name),
            ("trk", .trk), ("trkseg", .trkseg), ("trkpt", .trkpt), ("rte", .rte), ("rtept", .rtept),
            ("wpt", .wpt), ("ele", .ele), ("time", .time), ("hdop", .hdop), ("pdop", .pdop),
            ("speed", .speed), ("course", .course), ("hr", .heartRate), ("heartrate", .heartRate),
            ("cad", .cadence), ("cadence", .cadence),
        ]
        var table: [UInt64: GPXElement] = [:]
        for (name, element) in names {
            let bytes = Array(name.utf8CString)
            table[bytes.withUnsafeBufferPointer { key($0.baseAddress!, name.utf8.count) }] = element
        }
        return table
    }()

    /// Elements whose text the reader keeps.
    var hasValue: Bool {
        switch self {
        case .name, .author, .ele, .time, .hdop, .pdop, .speed, .course, .heartRate, .cadence: true
        default: false
        }
    }
}
