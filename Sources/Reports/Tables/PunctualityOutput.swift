import Foundation
import MobilityCore
import Publication

/// `punctuality.csv`: punctuality per line, direction and time band, as Publication computed
/// and audited it (`LinePunctuality`); the header alone without a feed or a matched ride.
public enum PunctualityOutput {
    public static let fileName = OutputSchema.punctuality.file

    public static func csv(_ table: LinePunctuality) -> CSVWriter {
        var csv = CSVWriter(columns: OutputSchema.punctuality.names)
        func number(_ value: Double?, _ decimals: Int) -> String? { value.map { String(format: "%.\(decimals)f", $0) } }
        for row in table.rows {
            csv.append([
                row.line.feed, row.line.agency, row.line.routeID, row.line.routeName, row.line.routeType,
                row.line.direction.map(String.init),
                row.band, String(row.persons), String(row.rides), number(row.medianDepartureDelaySeconds, 1),
                number(row.medianArrivalDelaySeconds, 1), number(row.onTimeShare, 4), number(table.onTime.earlySeconds, 0),
                number(table.onTime.lateSeconds, 0)
            ])
        }
        return csv
    }

    /// Writes the table into the published folder.
    public static func write(_ table: LinePunctuality, to folder: String) throws {
        try csv(table).write(to: (folder as NSString).appendingPathComponent(fileName))
    }
}
