import Foundation
import MobilityCore

/// The type a column is exported as, named as Apache Spark names it.
package enum ExportColumnType: String, Encodable {
    case long, double, string

    /// From the type a store column declares, by SQLite's affinity rules ("Datatypes In
    /// SQLite", section 3.1: `INT` anywhere → integer; `CHAR`, `CLOB`, `TEXT` → text; `REAL`,
    /// `FLOA`, `DOUB` → real). BLOB and NUMERIC columns are refused: the store has none, and
    /// CSV could not carry them exactly.
    package init(declared: String, table: String, column: String) throws {
        let type = declared.uppercased()
        if type.contains("INT") {
            self = .long
        } else if ["CHAR", "CLOB", "TEXT"].contains(where: type.contains) {
            self = .string
        } else if ["REAL", "FLOA", "DOUB"].contains(where: type.contains) {
            self = .double
        } else {
            throw PipelineError(
                .cannotExport,
                "\(table).\(column) is declared \(declared.isEmpty ? "without a type" : declared); "
                    + "the export writes INTEGER, REAL and TEXT columns only")
        }
    }
}

/// `schema.json`: how the CSVs are written and, per table, its file, row count, primary key
/// and columns, with a Spark `StructType` (`StructType.fromJson(table["spark_schema"])`).
package struct ExportSchema: Encodable {
    var format = "csv"
    var pipelineVersion: String
    var csv = Conventions()
    var tables: [Table]

    package init(pipelineVersion: String, tables: [Table]) {
        (self.pipelineVersion, self.tables) = (pipelineVersion, tables)
    }

    enum CodingKeys: String, CodingKey {
        case format, csv, tables
        case pipelineVersion = "pipeline_version"
    }

    struct Conventions: Encodable {
        var header = true
        var delimiter = ","
        var quote = "\""
        var escape = "\""
        var lineEnd = "\n"
        var encoding = "UTF-8"
        var null = "an empty field"
        var emptyString = "\"\""
        var doubles = "the shortest decimal text that reads back to the same IEEE 754 double; Inf, -Inf, NaN"
        /// The options Spark's CSV reader needs for these files, with the schema below. With
        /// `nullValue` empty, Spark 4.0 reads `""` as NULL too; a NUL character (which never
        /// occurs in the files) and `emptyValue` empty make an empty field NULL and `""` an
        /// empty string (checked with pyspark 4.0.1 on every table of a `run` store).
        var sparkReadOptions = [
            "header": "true", "quote": "\"", "escape": "\"", "multiLine": "true", "nullValue": "\u{0}",
            "emptyValue": "", "positiveInf": "Inf", "negativeInf": "-Inf", "nanValue": "NaN", "mode": "FAILFAST"
        ]

        enum CodingKeys: String, CodingKey {
            case header, delimiter, quote, escape, encoding, null, doubles
            case lineEnd = "line_end", emptyString = "empty_string", sparkReadOptions = "spark_read_options"
        }
    }

    package struct Table: Encodable {
        var name: String
        var file: String
        var rows: Int
        var primaryKey: [String]
        var columns: [Column]
        var sparkSchema: SparkStruct

        enum CodingKeys: String, CodingKey {
            case name, file, rows, columns
            case primaryKey = "primary_key", sparkSchema = "spark_schema"
        }

        package init(_ table: StoredTable, types: [ExportColumnType], rows: Int) {
            name = table.name
            file = table.name + ".csv"
            self.rows = rows
            primaryKey = table.primaryKey
            columns = zip(table.columns, types).map {
                Column(name: $0.name, type: $1, declaredType: $0.declaredType, nullable: !$0.notNull)
            }
            sparkSchema = SparkStruct(fields: columns.map { SparkField(name: $0.name, type: $0.type.rawValue, nullable: $0.nullable) })
        }
    }

    struct Column: Encodable {
        var name: String
        var type: ExportColumnType
        var declaredType: String
        var nullable: Bool

        enum CodingKeys: String, CodingKey {
            case name, type, nullable
            case declaredType = "declared_type"
        }
    }

    /// Spark's JSON form of a `StructType`.
    struct SparkStruct: Encodable {
        var type = "struct"
        var fields: [SparkField]
    }

    struct SparkField: Encodable {
        var name: String
        var type: String
        var nullable: Bool
        var metadata: [String: String] = [:]
    }
}
