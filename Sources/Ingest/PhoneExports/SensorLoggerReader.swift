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
    /// Each sensor file's rows parsed on a second thread while the visitor takes them
    /// (`TableIMUReader.readsAhead`).
    public var readsAhead = false

    public init(path: String, zipped: Bool) {
        self.path = path
        self.zipped = zipped
    }

    /// Reads every sensor file; returns the phone as `Metadata.csv` names it (`device name`).
    @discardableResult
    public func read(visitor: IMUTallyVisitor) throws -> String? {
        guard zipped else { return try readFolder(path, visitor: visitor) }
        return try ZipExtraction.withExport(
            path, what: "Sensor Logger export (Metadata.csv with Accelerometer.csv …)",
            isExport: { SensorLogger.isExport(fileNames: $1) }
        ) { folder in
            try readFolder(folder, visitor: visitor, displayPath: path)
        }
    }

    private func readFolder(_ folder: String, visitor: IMUTallyVisitor, displayPath: String? = nil) throws -> String? {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.sorted()
        for name in names {
            let file = (folder as NSString).appendingPathComponent(name)
            let stem = SensorLogger.stem(name)
            do {
                if stem == "location" {
                    try PositionTableReader(path: file).read(visitor: visitor)
                    continue
                }
                guard FormatDetector.familyExtension(name) == "csv", !["metadata", "annotation"].contains(stem) else { continue }
                let header = try LineReader.head(path: file, limit: 1).first ?? ""
                if Phyphox.isTimeColumn(CSVFields.split(header, delimiter: IMUDialect.guessDelimiter(header)).first ?? "") {
                    // A phyphox export whose meta/ was lost (a zip is told apart by its meta/ entries only).
                    throw InputError(
                        .noData,
                        "a phyphox export (its sensor files start with \"Time (s)\"), not a Sensor Logger one, and it has "
                            + "no meta/time.csv, so its times, seconds since the experiment began, cannot be made absolute; "
                            + Phyphox.startHint,
                        path: file, line: 1)
                }
                if let mapping = IMUDialect.sensorLogger(CSVFields.split(header), fileName: name) {
                    var reader = TableIMUReader(path: file, mapping: mapping)
                    reader.readsAhead = readsAhead
                    visitor.addRows(try reader.read(visitor: visitor))
                } else {
                    visitor.addOtherSensor(stem, rows: try LineReader.dataRows(path: file))
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
            !values[column].isEmpty
        else { return nil }
        return values[column]
    }
}

/// An IMU visitor that also counts rows (what the Sensor Logger reader needs of `IMUTally`).
public protocol IMUTallyVisitor: IMUVisitor {
    func addRows(_ count: Int)
    func addOtherSensor(_ name: String, rows: Int)
}
