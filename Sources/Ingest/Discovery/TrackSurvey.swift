import Foundation
import MobilityCore

/// Which GPS tracks in one folder cannot be one device's (`DeviceResolver`): two tracks whose
/// times overlap while their positions are far apart were carried by two phones, so a folder
/// named as one device (a GPX corpus folder, a shared upload folder) holds at least two.
/// Surveyed once over a run's inputs before any is read, like `PhoneSurvey`.
///
/// Cost follows the overlaps, not the files: each track's time extent comes from its first and
/// last `<time>` (GPX) or row (GeoLife PLT), read from the file's first and last 64 KiB; only
/// a compressed track, or one whose ends hold no time, is read whole for it. Only tracks whose
/// extents overlap another's are read for their positions, thinned to one fix per
/// `thinningSeconds`. Two tracks are far apart when, over at least `minimumPairs` moments
/// where both have a fix within `pairingSeconds`, the median distance between them exceeds
/// `farApartMeters`: one carrier's two loggers (or a re-upload cut short) stay within GPS
/// noise of each other, so they stay one device.
///
/// Limits, said in the docs: a track whose points are not in time order gives a wrong extent
/// from its ends; two people who travel together are not told apart (nothing in the positions
/// does).
public struct TrackSurvey: Sendable {
    public static let farApartMeters = 1_000.0
    public static let pairingSeconds = 60.0
    public static let thinningSeconds = 10.0
    public static let minimumPairs = 3
    static let endBytes = 1 << 16

    /// The tracks found to overlap another far apart: path → the name of the device's longest
    /// track, without its extensions. Tracks that overlap close together (one carrier's two
    /// loggers, a re-upload cut short) are one device, named by the longest of them.
    public private(set) var devices: [String: String] = [:]

    public init() {}

    /// Surveys the folders holding tracks among `inputs`: every track in them, given or not, so
    /// a part of a distributed run names them as the whole run does.
    public init(_ inputs: [DiscoveredInput]) {
        let folders = Set(
            inputs.filter { $0.problem == nil && Self.isTrack($0.path) }.map { ($0.path as NSString).deletingLastPathComponent })
        for folder in folders.sorted() {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
            let tracks = names.filter { !$0.hasPrefix(".") }.map { (folder as NSString).appendingPathComponent($0) }
                .filter { Self.isTrack($0) && FileKind(path: $0) == .regular }
            guard tracks.count >= 2 else { continue }
            devices.merge(Self.separateDevices(tracks), uniquingKeysWith: { first, _ in first })
        }
    }

    static func isTrack(_ path: String) -> Bool { ["gpx", "plt"].contains(FormatDetector.familyExtension(path)) }

    struct Extent {
        var path: String
        var start: Double
        var end: Double
    }

    /// The tracks of one folder that are a device of their own: every group of tracks that
    /// overlap close together (joined transitively), when one of them overlaps a track of
    /// another group far apart.
    static func separateDevices(_ tracks: [String]) -> [String: String] {
        let extents = tracks.compactMap { path in extent(of: path).map { Extent(path: path, start: $0.start, end: $0.end) } }
            .sorted { ($0.start, $0.path) < ($1.start, $1.path) }
        var fixes: [Int: [ThinnedFix]] = [:]
        func thinned(_ index: Int) -> [ThinnedFix] {
            if let known = fixes[index] { return known }
            let read = Self.thinnedFixes(of: extents[index].path)
            fixes[index] = read
            return read
        }
        var group = Array(extents.indices)
        func root(_ i: Int) -> Int {
            var i = i
            while group[i] != i { group[i] = group[group[i]]; i = group[i] }
            return i
        }
        var farApart: [(Int, Int)] = []
        for i in extents.indices {
            for j in (i + 1)..<extents.count {
                guard extents[j].start <= extents[i].end else { break } // sorted by start: none later overlaps
                switch separation(thinned(i), thinned(j)) {
                case .farApart: farApart.append((i, j))
                case .together: group[root(j)] = root(i)
                case .unknown: break
                }
            }
        }
        let separated = Set(farApart.flatMap { [root($0.0), root($0.1)] })
        var members: [Int: [Int]] = [:]
        for i in extents.indices where separated.contains(root(i)) { members[root(i), default: []].append(i) }
        var devices: [String: String] = [:]
        for indices in members.values {
            // Named by its longest track (then its path): the same name whichever track came first.
            let longest = indices.max {
                (extents[$0].end - extents[$0].start, extents[$1].path) < (extents[$1].end - extents[$1].start, extents[$0].path)
            }!
            let name = KnownExtensions.strip((extents[longest].path as NSString).lastPathComponent)
            for i in indices { devices[extents[i].path] = name }
        }
        return devices
    }

    enum Separation { case farApart, together, unknown }

    /// Far apart or together by the median distance between two tracks at the moments both
    /// have a fix; unknown when they have too few such moments.
    static func separation(_ a: [ThinnedFix], _ b: [ThinnedFix]) -> Separation {
        guard !a.isEmpty, !b.isEmpty else { return .unknown }
        var distances: [Double] = []
        var k = 0
        for fix in a {
            while k + 1 < b.count, abs(b[k + 1].seconds - fix.seconds) <= abs(b[k].seconds - fix.seconds) { k += 1 }
            guard abs(b[k].seconds - fix.seconds) <= pairingSeconds else { continue }
            distances.append(
                Geodesy.haversineMeters(
                    latitude1: fix.latitude, longitude1: fix.longitude,
                    latitude2: b[k].latitude, longitude2: b[k].longitude))
        }
        guard distances.count >= minimumPairs else { return .unknown }
        distances.sort()
        return distances[distances.count / 2] > farApartMeters ? .farApart : .together
    }

    struct ThinnedFix {
        var seconds: Double
        var latitude: Double
        var longitude: Double
    }

    /// A track's first and last time, seconds since 1970: from its ends when it is not compressed.
    static func extent(of path: String) -> (start: Double, end: Double)? {
        if !path.lowercased().hasSuffix(".gz"), let ends = endBytes(of: path) {
            let isPLT = FormatDetector.familyExtension(path) == "plt"
            if let start = isPLT ? pltTime(ends.head, first: true) : gpxTime(ends.head, first: true),
                let end = isPLT ? pltTime(ends.tail, first: false) : gpxTime(ends.tail, first: false)
            {
                return (min(start, end), max(start, end))
            }
        }
        let fixes = thinnedFixes(of: path)
        guard let first = fixes.first, let last = fixes.last else { return nil }
        return (first.seconds, last.seconds)
    }

    private static func endBytes(of path: String) -> (head: [UInt8], tail: [UInt8])? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd() else { return nil }
        try? handle.seek(toOffset: 0)
        let head = [UInt8]((try? handle.read(upToCount: endBytes)) ?? Data())
        guard size > UInt64(endBytes) else { return (head, head) }
        try? handle.seek(toOffset: size - UInt64(endBytes))
        return (head, [UInt8]((try? handle.read(upToCount: endBytes)) ?? Data()))
    }

    /// The first `<time>` after the first `<trkpt` (a document's `<metadata>` has a time of its
    /// own), or the last `<time>` in the bytes.
    static func gpxTime(_ bytes: [UInt8], first: Bool) -> Double? {
        let open = Array("<time>".utf8), close = Array("</time>".utf8)
        var from = 0
        if first {
            guard let point = find(Array("<trkpt".utf8), in: bytes, from: 0) else { return nil }
            from = point
        }
        var found: Double?
        while let start = find(open, in: bytes, from: from), let end = find(close, in: bytes, from: start + open.count) {
            let time = bytes[(start + open.count)..<end].withUnsafeBufferPointer { ISO8601.parse($0) }?.secondsSince1970
            if first { return time }
            found = time ?? found
            from = end + close.count
        }
        return found
    }

    /// The time of the first fix row (line 7) or the last whole row of a GeoLife PLT.
    static func pltTime(_ bytes: [UInt8], first: Bool) -> Double? {
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: true)
        let row: ArraySlice<UInt8>?
        if first {
            row = lines.count > 6 ? lines[6] : nil
        } else {
            // The tail's first line may be cut; its last is whole unless the file was.
            row = lines.last(where: { $0.split(separator: 0x2C).count >= 7 })
        }
        guard let row else { return nil }
        let fields = row.split(separator: 0x2C, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        guard fields.count >= 7 else { return nil }
        return ISO8601.parse(fields[5] + "T" + fields[6] + "Z")?.secondsSince1970
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
        guard needle.count <= bytes.count, from <= bytes.count - needle.count else { return nil }
        var i = from
        while i <= bytes.count - needle.count {
            if bytes[i] == needle[0], bytes[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    /// A track's fixes in time order, one per `thinningSeconds`; empty when it cannot be read
    /// (ingest then says why, with the file and line).
    static func thinnedFixes(of path: String) -> [ThinnedFix] {
        let collector = FixThinner()
        if FormatDetector.familyExtension(path) == "plt" {
            _ = try? PLTReader(path: path).read(visitor: collector)
        } else {
            var reader = GPXReader(path: path)
            reader.blockWorkers = Jobs.widthHere > 1 ? Jobs.widthHere : 0 // tracks are surveyed one at a time
            _ = try? reader.read(visitor: collector)
        }
        return collector.fixes.sorted { $0.seconds < $1.seconds }
    }

    private final class FixThinner: GPXVisitor {
        var fixes: [ThinnedFix] = []
        private var last = -Double.infinity

        func trackPoint(_ fix: PositionFix, at position: FixPosition) throws {
            guard let time = fix.time?.secondsSince1970, abs(time - last) >= TrackSurvey.thinningSeconds else { return }
            last = time
            fixes.append(ThinnedFix(seconds: time, latitude: fix.latitudeDegrees, longitude: fix.longitudeDegrees))
        }

        func waypoint(_ waypoint: Waypoint, line: Int) throws {}
        func rejectedPoint(_ reason: DropReason, line: Int) {}
    }
}
