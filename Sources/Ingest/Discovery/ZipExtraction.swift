import Foundation
import ZIPFoundation

/// Where zipped exports are unpacked, and the bounds on unpacking them.
///
/// During a `pipeline run` (see `using(folder:_:)`) every zip is unpacked once, into the
/// output folder's own `.pipeline-tmp`, and the later stages (classification, comfort) reuse
/// that copy; the folder is emptied when the run starts and removed when it ends, so a killed
/// run leaves nothing that the next one does not clear. Outside a run, a zip is unpacked into
/// a fresh folder under the system's temporary directory and removed after the read.
///
/// Unpacking is bounded before it starts: the entries' stated sizes may add up to at most
/// `maxInflationRatio` times the zip's size (past `ratioCapAppliesAboveBytes`) and
/// `maxUnpackedBytes` in all; ZIPFoundation checks each entry's CRC and refuses paths that
/// leave the folder (zip-slip).
public enum ZipExtraction {
    /// Most the entries of a zip may add up to, times the zip's size: 100 (as for gzip).
    public static let maxInflationRatio: UInt64 = 100
    /// Unpacked bytes below which the ratio is not checked: 64 MiB.
    public static let ratioCapAppliesAboveBytes: UInt64 = 64 << 20
    /// Most bytes one zip may unpack to: 16 GiB.
    public static let maxUnpackedBytes: UInt64 = 16 << 30

    private static let guardLock = NSLock()
    nonisolated(unsafe) private static var runFolder: String?

    /// Runs `body` with zips unpacked once each under `folder`, which is emptied before and
    /// removed after.
    public static func using<T>(folder: String, _ body: () throws -> T) throws -> T {
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        set(folder)
        defer {
            set(nil)
            try? FileManager.default.removeItem(atPath: folder)
        }
        return try body()
    }

    private static func set(_ folder: String?) {
        guardLock.lock()
        runFolder = folder
        guardLock.unlock()
    }

    /// Unpacks `zip` (bounded as every zip is) into a folder of its own, calls `body` with it,
    /// and removes it: for inputs that are not recordings, such as a transit feed.
    public static func withUnpackedFolder<T>(_ zip: String, _ body: (String) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pipeline-zip-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try unpack(zip, to: folder)
        return try body(folder)
    }

    /// Unpacks `zip` (or finds it unpacked earlier in this run) and calls `body` with the folder.
    static func withUnpacked<T>(_ zip: String, _ body: (String) throws -> T) throws -> T {
        guardLock.lock()
        let shared = runFolder
        guardLock.unlock()
        guard let shared else {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pipeline-zip-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: folder) }
            try unpack(zip, to: folder)
            return try body(folder)
        }
        let folder = (shared as NSString).appendingPathComponent(key(zip))
        let done = folder + ".done"
        if !FileManager.default.fileExists(atPath: done) {
            try? FileManager.default.removeItem(atPath: folder)
            try unpack(zip, to: folder)
            _ = FileManager.default.createFile(atPath: done, contents: nil)
        }
        return try body(folder)
    }

    /// Unpacks an app's export zip and calls `body` with the folder that holds the export: the
    /// zip's root, or the one folder that wraps it (`isExport(folder, names)` decides). `what`
    /// names the export in the error when neither holds it.
    static func withExport<T>(
        _ zip: String, what: String, isExport: (String, [String]) -> Bool,
        _ body: (String) throws -> T
    ) throws -> T {
        try withUnpacked(zip) { root in
            let names = try FileManager.default.contentsOfDirectory(atPath: root).filter { !$0.hasPrefix(".") && $0 != "__MACOSX" }
            if isExport(root, names) { return try body(root) }
            if names.count == 1 {
                let inner = (root as NSString).appendingPathComponent(names[0])
                if isExport(inner, (try? FileManager.default.contentsOfDirectory(atPath: inner)) ?? []) { return try body(inner) }
            }
            throw InputError(.unknownFormat, "the zip holds no \(what); it holds [\(names.sorted().joined(separator: ", "))]", path: zip)
        }
    }

    /// A folder name for one version of a zip: its path, size and modification time.
    private static func key(_ zip: String) -> String {
        let attributes = try? FileManager.default.attributesOfItem(atPath: zip)
        let size = (attributes?[.size] as? NSNumber)?.int64Value ?? 0
        let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 // FNV-1a: a name, not a security boundary
        for byte in "\(zip)|\(size)|\(modified)".utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }

    /// The entry paths of a zip (its central directory only; nothing is unpacked), or none
    /// when it cannot be opened (reading it then says why).
    /// The bytes of the first entry whose name ends with `suffix` (case-insensitive), when it
    /// is at most `limit` bytes unpacked: a small file read without unpacking the rest.
    static func smallEntry(_ zip: String, endingWith suffix: String, limit: UInt64 = 64 << 10) -> Data? {
        guard let archive = try? Archive(url: URL(fileURLWithPath: zip), accessMode: .read, pathEncoding: nil),
            let entry = archive.first(where: { $0.path.lowercased().hasSuffix(suffix.lowercased()) && $0.type == .file }),
            entry.uncompressedSize <= limit
        else { return nil }
        var data = Data()
        guard (try? archive.extract(entry, consumer: { data.append($0) })) != nil else { return nil }
        return data
    }

    static func entryPaths(_ zip: String) -> [String] {
        guard let archive = try? Archive(url: URL(fileURLWithPath: zip), accessMode: .read, pathEncoding: nil) else { return [] }
        return archive.map(\.path)
    }

    private static func unpack(_ zip: String, to folder: String) throws {
        let url = URL(fileURLWithPath: zip)
        let stated: UInt64
        do {
            stated = try Archive(url: url, accessMode: .read, pathEncoding: nil).reduce(0) { $0 + $1.uncompressedSize }
        } catch {
            throw InputError(.unreadable, "cannot open the zip (\(error)); expected a Sensor Logger or phyphox export zip", path: zip)
        }
        let packed = ((try? FileManager.default.attributesOfItem(atPath: zip))?[.size] as? NSNumber)?.uint64Value ?? 0
        if stated > maxUnpackedBytes || stated > ratioCapAppliesAboveBytes && stated > maxInflationRatio * max(packed, 1) {
            throw InputError(
                .tooLarge,
                "the zip's entries add up to \(stated >> 20) MiB from \(packed) bytes (more than \(maxInflationRatio)× "
                    + "or \(maxUnpackedBytes >> 30) GiB): refused as a likely decompression bomb", path: zip)
        }
        do {
            try FileManager.default.unzipItem(at: url, to: URL(fileURLWithPath: folder))
        } catch {
            throw InputError(.unreadable, "cannot unzip (\(error)); expected a Sensor Logger or phyphox export zip", path: zip)
        }
    }
}
