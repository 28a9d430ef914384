import Foundation
import MobilityCore

/// Reads a phyphox export, a folder or a `.zip`, as one device's recording: every sensor CSV
/// with its times made absolute by `meta/time.csv` (`ExperimentClock`), the acceleration,
/// linear-acceleration, gyroscope and gravity files as IMU streams, `Location.csv` as GPS
/// fixes, every other sensor file (proximity, light, magnetometer, pressure …) counted by row
/// and kept aside, never quarantined. Returns the phone model from `meta/device.csv`.
public struct PhyphoxReader {
    public let path: String
    public let zipped: Bool

    public init(path: String, zipped: Bool) {
        self.path = path
        self.zipped = zipped
    }

    @discardableResult
    public func read(visitor: IMUTallyVisitor) throws -> String? {
        guard zipped else { return try readFolder(path, visitor: visitor) }
        return try ZipExtraction.withExport(path, what: "phyphox export (meta/time.csv beside sensor CSV files)",
                                            isExport: { Phyphox.isExport(folder: $0, fileNames: $1) }) { folder in
            try readFolder(folder, visitor: visitor, displayPath: path)
        }
    }

    private func readFolder(_ folder: String, visitor: IMUTallyVisitor, displayPath: String? = nil) throws -> String? {
        let shown = displayPath ?? folder
        let clock: ExperimentClock
        do { clock = try Phyphox.clock(timeFile: (folder as NSString).appendingPathComponent("meta/time.csv")) } catch var error as InputError {
            error.path = shown + "/meta/time.csv"
            throw error
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.sorted()
        for name in names where FormatDetector.familyExtension(name) == "csv" {
            let file = (folder as NSString).appendingPathComponent(name)
            do {
                let header = try LineReader.head(path: file, limit: 1).first ?? ""
                let fields = CSVFields.split(header, delimiter: IMUDialect.guessDelimiter(header))
                if LocationCSVReader.Columns(header: fields) != nil {
                    try LocationCSVReader(path: file, clock: clock).read(visitor: visitor)
                } else if var mapping = IMUDialect.mapping(headerLine: header, fileName: name), mapping.dialect == "phyphox" {
                    mapping.clock = clock
                    visitor.addRows(try TableIMUReader(path: file, mapping: mapping).read(visitor: visitor))
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
