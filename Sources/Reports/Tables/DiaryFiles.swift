import Foundation
import GRDB
import MobilityCore
import Store
import Trips

/// `pipeline export --format diary`: the travel diary's persons, days, activities, trips and
/// legs as CSV (`OutputSchema.diaryFiles`, documented in docs/output-schema.md) and as the
/// layers of `diary.gpkg` (activities as points), from the store's rows taken as values.
public struct DiaryFiles {
    public var rows: DiaryRows

    public init(rows: DiaryRows) { self.rows = rows }

    public static let geoPackageName = "diary.gpkg"

    /// Writes the five CSVs and the GeoPackage into `folder`; returns each file's rows.
    @discardableResult
    public func write(to folder: String) throws -> [String: Int] {
        let tables: [(OutputSchema, [[String?]])] = [
            (OutputSchema.diaryPersons, persons()), (OutputSchema.diaryDays, days()),
            (OutputSchema.diaryActivities, Self.fields(rows.activities, OutputSchema.diaryActivities)),
            (OutputSchema.diaryTrips, Self.fields(rows.trips, OutputSchema.diaryTrips)),
            (OutputSchema.diaryLegs, Self.fields(rows.legs, OutputSchema.diaryLegs))
        ]
        var written: [String: Int] = [:]
        for (schema, table) in tables {
            var csv = CSVWriter(columns: schema.names)
            for row in table { csv.append(row) }
            try csv.write(to: (folder as NSString).appendingPathComponent(schema.file))
            written[schema.file] = table.count
        }
        let path = (folder as NSString).appendingPathComponent(Self.geoPackageName)
        try? FileManager.default.removeItem(atPath: path)
        let package = try GeoPackageWriter(path: path)
        for (schema, table) in tables {
            let name = "diary_" + schema.file.replacingOccurrences(of: ".csv", with: "")
            let columns = schema.columns.map { GeoPackageWriter.Column(name: $0.name, type: $0.type) }
            if schema.file == OutputSchema.diaryActivities.file {
                let (lat, lon) = (schema.index("lat"), schema.index("lon"))
                try package.addLayer(
                    name, description: schema.about, geometry: .point, columns: columns,
                    rows: table.lazy.map { row in
                        let point = row[lat].flatMap(Double.init).flatMap { y in
                            row[lon].flatMap(Double.init).map { GeoPackageWriter.Geometry.point(longitude: $0, latitude: y) }
                        }
                        return (point, GeoPackageOutput.values(row, schema))
                    })
            } else {
                try package.addLayer(
                    name, description: schema.about, geometry: nil, columns: columns,
                    rows: table.lazy.map { (nil, GeoPackageOutput.values($0, schema)) })
            }
        }
        try package.finish()
        written[Self.geoPackageName] = tables.count
        return written
    }

    /// A store row's fields in the schema's columns: `x_at` from `x_unix_s` (ISO 8601 UTC,
    /// milliseconds), booleans as `true`/`false`, numbers as SQLite gave them.
    static func fields(_ rows: [[String: String?]], _ schema: OutputSchema) -> [[String?]] {
        rows.map { row in
            schema.columns.map { column -> String? in
                if column.type == .datetime {
                    let stem = String(column.name.dropLast(3))
                    return (row[stem + "_unix_s"] ?? nil).flatMap(Double.init).map { ISO8601.formatMillis(Timestamp(secondsSince1970: $0)) }
                }
                let value = row[column.name] ?? nil
                if column.type == .boolean { return value.map { $0 == "1" ? "true" : "false" } }
                if column.type == .real, let number = value.flatMap(Double.init) { return Self.text(number, column.name) }
                if column.name == "imu_minutes" {
                    return (row["imu_s"] ?? nil).flatMap(Double.init).map { String(format: "%.2f", $0 / 60) }
                }
                return value
            }
        }
    }

    /// A real as the run's CSVs print it: seconds to the millisecond, shares to 4 places,
    /// degrees to 6, metres to 0.1.
    static func text(_ value: Double, _ column: String) -> String {
        let decimals =
            column.hasSuffix("_s")
            ? 3
            : column.hasSuffix("share")
                ? 4
                : column.hasSuffix("lat") || column.hasSuffix("lon")
                    ? 6
                    : column.hasSuffix("_m") ? 1 : 3
        return String(format: "%.\(decimals)f", value)
    }

    /// Each day's minutes per mode and hours in motion, from its legs cut at its bounds.
    private var secondsByDay: [[String]: [String: Double]] {
        var seconds: [[String]: [String: Double]] = [:]
        for row in rows.daySecondsPerMode {
            guard let person = row["person"] ?? nil, let date = row["local_date"] ?? nil, let mode = row["travel_mode"] ?? nil,
                let value = (row["seconds"] ?? nil).flatMap(Double.init)
            else { continue }
            seconds[[person, date], default: [:]][mode, default: 0] += value
        }
        return seconds
    }

    func days() -> [[String?]] {
        let seconds = secondsByDay, schema = OutputSchema.diaryDays
        return rows.days.map { row in
            let key = [(row["person"] ?? nil) ?? "", (row["local_date"] ?? nil) ?? ""]
            let modes = seconds[key] ?? [:]
            var fields = Self.fields([row], schema)[0]
            fields[schema.index("in_motion_h")] = String(format: "%.3f", modes.values.reduce(0, +) / 3600)
            for mode in OutputSchema.modeNames {
                fields[schema.index("time_\(mode)_min")] = String(format: "%.1f", (modes[mode] ?? 0) / 60)
            }
            return fields
        }
    }

    /// Seed statistics over each person's valid days: mean hours in motion a day, weekly hours per mode.
    func persons() -> [[String?]] {
        let seconds = secondsByDay, schema = OutputSchema.diaryPersons
        var valid: [String: [[String]]] = [:]
        for row in rows.days where (row["valid"] ?? nil) == "1" {
            let person = (row["person"] ?? nil) ?? ""
            valid[person, default: []].append([person, (row["local_date"] ?? nil) ?? ""])
        }
        return rows.persons.map { row in
            var fields = Self.fields([row], schema)[0]
            let days = valid[(row["person"] ?? nil) ?? ""] ?? []
            fields[schema.index("weight")] = rows.weights[(row["person"] ?? nil) ?? ""].map { String(format: "%.4f", $0) }
            guard let seeds = Diary.seedStatistics(validDays: days.map { seconds[$0] ?? [:] }) else { return fields }
            fields[schema.index("mean_daily_in_motion_h")] = String(format: "%.3f", seeds.dailyInMotionHours)
            for mode in OutputSchema.modeNames {
                fields[schema.index("weekly_\(mode)_h")] = String(format: "%.3f", seeds.weeklyHours[mode] ?? 0)
            }
            return fields
        }
    }
}
