import Foundation
import MobilityCore
import Publication
import Store

extension ReportPage {
    /// "Punctuality per line": the rows `punctuality.csv` publishes (`LinePunctuality`, audited
    /// at k persons), with the trip stage's line on what it matched and left out. Nothing
    /// without a feed: the trip stage matched no leg against a timetable.
    func punctuality(_ published: ReportFacts.Published) throws -> String {
        let path = (folder as NSString).appendingPathComponent(OutputSchema.punctuality.file)
        guard let line = published.punctualityLine, !line.isEmpty, FileManager.default.fileExists(atPath: path) else { return "" }
        let table = try OutputSchema.punctuality.read(in: folder)
        let column = OutputSchema.punctuality.index
        func minutes(_ row: [String?], _ name: String) -> String {
            row[column(name)].flatMap(Double.init).map { HTML.number($0 / 60, 1) } ?? "–"
        }
        let rows = table.rows.map { row in
            [
                (row[column("route_name")] ?? "") + " (" + (row[column("agency")] ?? "") + ")", row[column("route_type")] ?? "",
                row[column("direction")] ?? "–", row[column("time_band")] ?? "", row[column("persons")] ?? "",
                row[column("rides")] ?? "", minutes(row, "median_departure_delay_s"), minutes(row, "median_arrival_delay_s"),
                row[column("on_time_share")].flatMap(Double.init).map { HTML.number(100 * $0, 1) + "%" } ?? "–"
            ]
        }
        let window = table.rows.first.map { row in
            LinePunctuality.OnTime(
                earlySeconds: row[column("on_time_early_s")].flatMap(Double.init),
                lateSeconds: row[column("on_time_late_s")].flatMap(Double.init) ?? LinePunctuality.OnTime().lateSeconds
            ).text
        }
        return "<section><h2>Punctuality per line</h2><p class=\"note\">Rides matched to a scheduled trip of the transit feeds "
            + "(docs/modes.md, \"The trip of the timetable\") whose arrival at the stop they alighted at was seen, per line, "
            + "direction (GTFS direction_id) and time band of the scheduled departure: the median delays (observed − scheduled, "
            + "minutes) and the share on time" + (window.map { " (" + HTML.escape($0) + ")" } ?? "") + ". A row fewer than k = "
            + "\(published.minimumPersons) persons made, and whatever would give it away, is left out; so is an on-time share "
            + "whose on-time or late rides fewer than k persons made (–). From punctuality.csv.</p>"
            + "<p class=\"note\">\(HTML.escape(line)).</p>"
            + HTML.table(
                [
                    "line", "type", "direction", "time band", "persons", "rides", "median departure delay (min)",
                    "median arrival delay (min)", "on time"
                ], rows, numeric: Set(4...8))
            + "</section>"
    }
}
