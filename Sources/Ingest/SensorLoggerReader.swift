import Foundation
import MobilityCore
import ZIPFoundation

/// Reads a Sensor Logger export, a folder or a `.zip`, of per-sensor CSV files.
///
/// `Accelerometer.csv` (gravity-free, so the linear-acceleration stream),
/// `TotalAcceleration.csv` (with gravity, the accelerometer stream), `Gyroscope.csv` and
/// `Gravity.csv` become IMU streams; `Location.csv` becomes GPS fixes; other sensor files
/// (magnetometer, orientation, barometer …) are counted by row; `Metadata.csv` and
/// `Annotation.csv` are not sensor data. A zip is unpacked as `ZipExtraction` says (once per
/// run, bounded); the user's zip is never changed.
public struct SensorLoggerReader {
    public let path: String
    public let zipped: Bool

    public init(path: String, zipped: Bool) {
        self.path = path
        self.zipped = zipped
    }

    /// Reads every sensor file; returns the phone as `Metadata.csv` names it (`device name`).
    @discardableResult
    public func read(visitor: IMUTallyVisitor) throws -> String? {
        guard zipped else { return try readFolder(path, visitor: visitor) }
        return try ZipExtraction.withUnpacked(path) { unpacked in
            try readFolder(try exportFolder(in: unpacked), visitor: visitor, displayPath: path)
        }
    }

    /// The folder inside an extracted zip that holds the CSV files (the zip may wrap them in one).
    private func exportFolder(in root: String) throws -> String {
        let names = try FileManager.default.contentsOfDirectory(atPath: root).filter { !$0.hasPrefix(".") && $0 != "__MACOSX" }
        if SensorLogger.isExport(fileNames: names) { return root }
        if names.count == 1 {
            let inner = (root as NSString).appendingPathComponent(names[0])
            if SensorLogger.isExport(fileNames: (try? FileManager.default.contentsOfDirectory(atPath: inner)) ?? []) { return inner }
        }
        throw InputError(.unknownFormat, "the zip holds no Sensor Logger export (Metadata.csv with Accelerometer.csv …); it holds [\(names.sorted().joined(separator: ", "))]", path: path)
    }

    private func readFolder(_ folder: String, visitor: IMUTallyVisitor, displayPath: String? = nil) throws -> String? {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.sorted()
        for name in names {
            let file = (folder as NSString).appendingPathComponent(name)
            let stem = SensorLogger.stem(name)
            do {
                if stem == "location" {
                    try LocationCSVReader(path: file).read(visitor: visitor)
                    continue
                }
                guard FormatDetector.familyExtension(name) == "csv", !["metadata", "annotation"].contains(stem) else { continue }
                let header = try LineReader.head(path: file, limit: 1).first ?? ""
                if let mapping = IMUDialect.sensorLogger(CSVFields.split(header), fileName: name) {
                    visitor.addRows(try TableIMUReader(path: file, mapping: mapping).read(visitor: visitor))
                } else {
                    var rows = 0
                    try LineReader(path: file).forEachLine { line, number in
                        if number > 1, !line.isEmpty { rows += 1 }
                        return true
                    }
                    visitor.addOtherSensor(stem, rows: rows)
                }
            } catch var error as InputError {
                error.path = (displayPath ?? folder) + "/" + name
                throw error
            }
        }
        return Self.phoneModel(names.first { SensorLogger.stem($0) == "metadata" }.map { (folder as NSString).appendingPathComponent($0) })
    }

    /// `device name` from `Metadata.csv` (a header row and one value row).
    static func phoneModel(_ metadata: String?) -> String? {
        guard let metadata, let lines = try? LineReader.head(path: metadata, limit: 2), lines.count == 2 else { return nil }
        let header = CSVFields.split(lines[0]), values = CSVFields.split(lines[1])
        guard let column = header.firstIndex(where: { $0.lowercased() == "device name" }), column < values.count,
              !values[column].isEmpty else { return nil }
        return values[column]
    }
}

/// An IMU visitor that also counts rows (what the Sensor Logger reader needs of `IMUTally`).
public protocol IMUTallyVisitor: IMUVisitor {
    func addRows(_ count: Int)
    func addOtherSensor(_ name: String, rows: Int)
}
