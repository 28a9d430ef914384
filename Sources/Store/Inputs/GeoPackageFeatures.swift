import Foundation
import GRDB
import MobilityCore

/// The features of a GeoPackage's first feature table (OGC 12-128r18 §2.1: the table listed
/// first in `gpkg_contents` with `data_type = 'features'`, its geometry column from
/// `gpkg_geometry_columns`), as the zone layer of the planning tables reads them: each row's
/// text of two named columns and its geometry blob. The file is opened read-only and never
/// changed.
public struct GeoPackageFeatures: Sendable {
    public struct Feature: Sendable {
        /// The values of the columns asked for, as text (nil where NULL).
        public var values: [String: String]
        public var geometry: [UInt8]?
        /// 1-based row in the table's rowid order, for messages.
        public var row: Int
    }

    public var table: String
    /// The table's spatial reference as `gpkg_spatial_ref_sys` names it: organisation and its id
    /// (`EPSG`, 4326), or nil when the table's `srs_id` has no row there.
    public var spatialReference: (organization: String, id: Int)?
    public var columns: [String]
    public var features: [Feature]

    /// Reads `path`; `columns` are the attribute columns wanted (each must exist), and
    /// `optionalColumns` those read when the table has them.
    public init(path: String, columns required: [String], optionalColumns: [String] = []) throws {
        func failure(_ reason: String, _ cause: (any Error)? = nil) -> PipelineError {
            PipelineError(.invalidZoneLayer, path: path, reason: reason, cause: cause)
        }
        var configuration = Configuration()
        configuration.readonly = true
        let queue: DatabaseQueue
        do { queue = try DatabaseQueue(path: path, configuration: configuration) } catch {
            throw failure("cannot open as a GeoPackage (SQLite)", error)
        }
        do {
            let found = try queue.read { db -> (String, String, Int64, [String])? in
                guard try db.tableExists("gpkg_contents"), try db.tableExists("gpkg_geometry_columns"),
                    let row = try Row.fetchOne(
                        db,
                        sql: """
                            SELECT c.table_name, g.column_name, g.srs_id FROM gpkg_contents c
                            JOIN gpkg_geometry_columns g ON g.table_name = c.table_name
                            WHERE c.data_type = 'features' ORDER BY c.rowid LIMIT 1
                            """)
                else { return nil }
                let table: String = row[0]
                return (table, row[1], row[2], try db.columns(in: table).map(\.name))
            }
            guard let (table, geometryColumn, srsID, columns) = found else {
                throw failure("not a GeoPackage with a feature table (no gpkg_contents row of data_type 'features')")
            }
            (self.table, self.columns) = (table, columns)
            let missing = required.filter { !columns.contains($0) }
            let wanted = required + optionalColumns.filter { columns.contains($0) && !required.contains($0) }
            guard missing.isEmpty else {
                throw failure(
                    "the feature table \(table) has no column \(missing.joined(separator: ", ")) (it has: \(columns.joined(separator: ", ")))"
                )
            }
            spatialReference = try queue.read { db in
                try Row.fetchOne(
                    db, sql: "SELECT organization, organization_coordsys_id FROM gpkg_spatial_ref_sys WHERE srs_id = ?",
                    arguments: [srsID]
                ).map { (($0[0] as String?) ?? "", ($0[1] as Int?) ?? 0) }
            }
            let quoted = ([geometryColumn] + wanted).map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
            let sql =
                "SELECT \(quoted.joined(separator: ", ")) FROM \"\(table.replacingOccurrences(of: "\"", with: "\"\""))\" ORDER BY rowid"
            features = try queue.read { db in
                var features: [Feature] = []
                let rows = try Row.fetchCursor(db, sql: sql)
                while let row = try rows.next() {
                    var values: [String: String] = [:]
                    for (index, name) in wanted.enumerated() {
                        let value: DatabaseValue = row[index + 1]
                        switch value.storage {
                        case .null: break
                        case .int64(let number): values[name] = String(number)
                        case .double(let number): values[name] = String(number)
                        case .string(let text): values[name] = text
                        case .blob: values[name] = nil
                        }
                    }
                    let blob: Data? = row[0]
                    features.append(Feature(values: values, geometry: blob.map { [UInt8]($0) }, row: features.count + 1))
                }
                return features
            }
        } catch let error as PipelineError {
            throw error
        } catch {
            throw failure("cannot read as a GeoPackage", error)
        }
    }
}
