import Foundation
import ZIPFoundation

/// Writes a zip archive (deflate) with fixed entry dates, so the same seed gives the same bytes.
enum SensorLoggerZip {
    static func write(_ entries: [(name: String, bytes: [UInt8])], to path: String, date seconds: Double) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: url)
        let archive = try Archive(url: url, accessMode: .create, pathEncoding: nil)
        let date = Date(timeIntervalSince1970: seconds)
        for (name, bytes) in entries {
            try archive.addEntry(
                with: name, type: .file, uncompressedSize: Int64(bytes.count), modificationDate: date,
                compressionMethod: .deflate
            ) { position, size in
                Data(bytes[Int(position)..<Int(position) + size])
            }
        }
    }
}
