import Foundation

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
        self.init(
            qualifiedName: UnsafeBufferPointer(
                start: UnsafeRawPointer(qualifiedName).assumingMemoryBound(to: UInt8.self),
                count: strlen(qualifiedName)))
    }

    init(qualifiedName: UnsafeBufferPointer<UInt8>) {
        var localStart = 0
        for index in qualifiedName.indices where qualifiedName[index] == 0x3A { localStart = index + 1 }
        self.init(localName: UnsafeBufferPointer(rebasing: qualifiedName[localStart...]))
    }

    /// A switch on length, then a byte comparison: no hashing, no strings (this runs for
    /// every tag of every file).
    private init(localName name: UnsafeBufferPointer<UInt8>) {
        func equals(_ text: StaticString) -> Bool {
            memcmp(name.baseAddress!, text.utf8Start, name.count) == 0
        }
        switch name.count {
        case 2: self = equals("hr") ? .heartRate : .other
        case 3:
            if equals("ele") {
                self = .ele
            } else if equals("trk") {
                self = .trk
            } else if equals("wpt") {
                self = .wpt
            } else if equals("gpx") {
                self = .gpx
            } else if equals("rte") {
                self = .rte
            } else if equals("cad") {
                self = .cadence
            } else {
                self = .other
            }
        case 4:
            if equals("time") {
                self = .time
            } else if equals("name") {
                self = .name
            } else if equals("hdop") {
                self = .hdop
            } else if equals("pdop") {
                self = .pdop
            } else {
                self = .other
            }
        case 5:
            if equals("trkpt") {
                self = .trkpt
            } else if equals("rtept") {
                self = .rtept
            } else if equals("speed") {
                self = .speed
            } else {
                self = .other
            }
        case 6:
            if equals("trkseg") {
                self = .trkseg
            } else if equals("author") {
                self = .author
            } else if equals("course") {
                self = .course
            } else {
                self = .other
            }
        case 7: self = equals("cadence") ? .cadence : .other
        case 8: self = equals("metadata") ? .metadata : .other
        case 9: self = equals("heartrate") ? .heartRate : .other
        default: self = .other
        }
    }

    /// Elements whose text the reader keeps.
    var hasValue: Bool {
        switch self {
        case .name, .author, .ele, .time, .hdop, .pdop, .speed, .course, .heartRate, .cadence: true
        default: false
        }
    }
}
