import Foundation
import MobilityCore

/// Reads a phyphox export, a folder or a `.zip`, as one device's recording: every sensor CSV
/// with its times made absolute by `meta/time.csv` (`ExperimentClock`), the acceleration,
/// linear-acceleration, gyroscope and gravity files as IMU streams (either header family,
/// `IMUDialect.phyphox`), `Location.csv` as GPS fixes, every other sensor file (proximity,
/// light, magnetometer, pressure …) counted by row and kept aside. A file named like a motion
/// sensor that no family reads is an error naming its header, never "another sensor".
/// Returns the phone model from `meta/device.csv`.
public struct PhyphoxReader {
    public let path: String
    public let zipped: Bool
    /// Each sensor file's rows parsed on a second thread while the visitor takes them
    /// (`TableIMUReader.readsAhead`).
    public var readsAhead = false
    /// The recording's start, Unix seconds, given by the user for an export without
    /// `meta/time.csv`; it replaces that file's clock when set.
    public var startSeconds: Double?

    public init(path: String, zipped: Bool, startSeconds: Double? = nil) {
        self.path = path
        self.zipped = zipped
        self.startSeconds = startSeconds
    }

    @discardableResult
    public func read(visitor: IMUTallyVisitor) throws -> String? {
        guard zipped else { return try readFolder(path, visitor: visitor) }
        return try ZipExtraction.withExport(
            path, what: "phyphox export (meta/time.csv beside sensor CSV files)",
            isExport: { Phyphox.isExport(folder: $0, fileNames: $1) }
        ) { folder in
            try readFolder(folder, visitor: visitor, displayPath: path)
        }
    }

    private func readFolder(_ folder: String, visitor: IMUTallyVisitor, displayPath: String? = nil) throws -> String? {
        let shown = displayPath ?? folder
        let clock: ExperimentClock
        if let startSeconds, let given = ExperimentClock(starts: [(0, startSeconds)]) {
            clock = given
        } else {
            do { clock = try Phyphox.clock(timeFile: (folder as NSString).appendingPathComponent("meta/time.csv")) } catch var error
                as InputError
            {
                error.path = shown + "/meta/time.csv"
                throw error
            }
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.sorted()
        for name in names where FormatDetector.familyExtension(name) == "csv" {
            let file = (folder as NSString).appendingPathComponent(name)
            do {
                let header = try LineReader.head(path: file, limit: 1).first ?? ""
                let fields = CSVFields.split(header, delimiter: IMUDialect.guessDelimiter(header))
                let sensor = PhyphoxSensor(fileName: name)
                if PositionTableReader.Columns(header: fields) != nil {
                    try PositionTableReader(path: file, clock: clock).read(visitor: visitor)
                } else if sensor == .magnetometer || PhyphoxSensor.isMagnetometerHeader(fields) {
                    visitor.addOtherSensor("magnetometer", rows: try LineReader.dataRows(path: file))
                } else if var mapping = IMUDialect.phyphox(fields, fileName: name) {
                    mapping.delimiter = IMUDialect.guessDelimiter(header)
                    mapping.header = fields
                    mapping.clock = clock
                    var reader = TableIMUReader(path: file, mapping: mapping)
                    reader.readsAhead = readsAhead
                    visitor.addRows(try reader.read(visitor: visitor))
                } else if let sensor {
                    let kind =
                        if case .stream(let stream) = sensor { stream.rawValue.replacingOccurrences(of: "_", with: " ") } else {
                            "magnetometer"
                        }
                    throw InputError(
                        .badHeader,
                        "named like a motion sensor (\(kind)), but its columns [\(fields.joined(separator: ", "))] "
                            + "are neither phyphox family: expected \"Time (s)\" with \"X (m/s^2)\",\"Y (m/s^2)\",\"Z (m/s^2)\" (iPhone) "
                            + "or \"Acceleration x (m/s^2)\"… / \"Gyroscope x (rad/s)\"… (Android)", path: file, line: 1)
                } else {
                    visitor.addOtherSensor(SensorLogger.stem(name), rows: try LineReader.dataRows(path: file))
                }
            } catch var error as InputError {
                error.path = shown + "/" + name
                throw error
            }
        }
        return Phyphox.phoneModel(deviceFile: (folder as NSString).appendingPathComponent("meta/device.csv"))
    }
}
