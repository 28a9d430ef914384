import Foundation
import GRDB
import Ingest
import TestSupport
import Testing

/// The golden record: the SHA-256 of every output of fixed scenarios (the bundled traces, a
/// simulated city, `classify`, `evaluate`, both exports, two `--partial` parts with their
/// exports and a `publish`, `schema --json`, `config --print`), compared with
/// `Fixtures/golden-outputs.tsv`. Code that only moves (a decision changing module) must leave
/// every hash as it was; a change of output on purpose re-records the file in its own commit,
/// with the reason (`scripts/dev/golden.sh record`), so the diff of the record names every file it
/// changed.
///
/// What is masked, because it is not the product's answer: where the scenario ran (its
/// temporary folder, the project's folder), the time it ran (ISO 8601 times of today ±1 day,
/// Unix seconds within 2 days of now), the stages' timings (`stage_seconds`, `seconds`, `seconds_*` in
/// JSON), the inputs' file signatures (size, modification time, inode: `file_signature`), the
/// run fingerprint over them (`derived_state.complete_run`) and the GeoPackage's
/// `last_change`. SQLite files are hashed as their rows (table by table, in rowid order), not
/// as pages, which depend on the order of writes.
@Suite(.serialized) struct GoldenOutputTests {
    let cli = PipelineCLI()
    static let recordPath = SharedData.projectRoot + "/Tests/EndToEndTests/Fixtures/golden-outputs.tsv"
    var model: String { SharedData.projectRoot + "/models/mode-model.json" }

    @Test func everyOutputOfTheFixedScenariosIsAsRecorded() throws {
        let folder = try TemporaryFolder("golden")
        var hashes: [String: String] = [:]
        var normaliser = Normaliser(roots: [folder.path, SharedData.projectRoot])
        try bundled(folder, into: &hashes, normaliser: &normaliser)
        try city(folder, into: &hashes, normaliser: &normaliser)
        try distributed(folder, into: &hashes, normaliser: &normaliser)
        try descriptions(folder, into: &hashes, normaliser: &normaliser)
        let text = hashes.sorted { $0.key < $1.key }.map { "\($0.key)\t\($0.value)" }.joined(separator: "\n") + "\n"
        if let keep = ProcessInfo.processInfo.environment["GOLDEN_KEEP"] { try normaliser.keep(in: keep) }
        if ProcessInfo.processInfo.environment["GOLDEN_RECORD"] == "1" {
            try Data(text.utf8).write(to: URL(fileURLWithPath: Self.recordPath))
            return
        }
        let recorded = try String(contentsOfFile: Self.recordPath, encoding: .utf8)
        var expected: [String: String] = [:]
        for line in recorded.split(separator: "\n") {
            let parts = line.split(separator: "\t")
            if parts.count == 2 { expected[String(parts[0])] = String(parts[1]) }
        }
        let changed = expected.keys.filter { hashes[$0] != nil && hashes[$0] != expected[$0] }.sorted()
        let missing = expected.keys.filter { hashes[$0] == nil }.sorted()
        let new = hashes.keys.filter { expected[$0] == nil }.sorted()
        let advice =
            "if on purpose, run scripts/dev/golden.sh record and commit the record with the reason (GOLDEN_KEEP=DIR keeps the normalised files to diff)"
        #expect(
            changed.isEmpty && missing.isEmpty && new.isEmpty,
            "outputs differ from the golden record: changed \(changed), no longer written \(missing), new \(new); \(advice)")
    }

    /// The bundled `traces/`: `run`, its JSON summary, `classify`, and both exports of its store.
    func bundled(_ folder: TemporaryFolder, into hashes: inout [String: String], normaliser: inout Normaliser) throws {
        let root = folder.file("bundled")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: SharedData.projectRoot + "/traces", toPath: root + "/traces")
        let run = try cli.pipeline(["run", "traces", "--out", "out", "--json", "--model", model], in: root)
        #expect(run.status == 2, "the bundled traces hold one cut-off upload: \(run.stderr)")
        hashes["bundled/run.json"] = normaliser.hash(json: run.stdout, name: "bundled/run.json")
        try normaliser.hashFolder(root + "/out", as: "bundled/out", into: &hashes)

        let classify = try cli.pipeline(["classify", "traces", "--out", "classify/modes.csv", "--model", model], in: root)
        #expect(classify.status == 2, "the cut-off upload is not read: \(classify.stderr)")
        hashes["bundled/classify.stdout"] = normaliser.hash(text: classify.stdout, name: "bundled/classify.stdout")
        try normaliser.hashFolder(root + "/classify", as: "bundled/classify", into: &hashes)

        for format in ["csv", "trackintel"] {
            let export = try cli.pipeline(
                ["export", "--store", "out/pipeline.sqlite", "--out", "export-\(format)", "--format", format], in: root)
            #expect(export.status == 0, "\(export.stderr)")
            try normaliser.hashFolder(root + "/export-\(format)", as: "bundled/export-\(format)", into: &hashes)
        }
    }

    /// A simulated city (six residents for a day, two with IMU, the simulator's faults): the
    /// simulator's files and truth, `run`, and `evaluate` of the model on the IMU recordings.
    func city(_ folder: TemporaryFolder, into hashes: inout [String: String], normaliser: inout Normaliser) throws {
        let root = folder.file("city")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let simulate = try cli.pipeline(
            [
                "simulate", "--out", "traces", "--devices", "6", "--days", "1", "--seed", "7", "--gps-still-interval", "30",
                "--faults", "--imu-devices", "2", "--imu-trips-per-day", "1"
            ], in: root)
        #expect(simulate.status == 0, "\(simulate.stderr)")
        try normaliser.hashFolder(root + "/traces", as: "city/traces", into: &hashes)
        // A planner's two zones, west and east of the city's centre (2.3522° E): od_zones.csv.
        try folder.write(
            "city/zones.geojson",
            """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"id":"west","name":"West"},"geometry":{"type":"Polygon","coordinates":[[[-10,40],[2.3522,40],[2.3522,60],[-10,60],[-10,40]]]}},
            {"type":"Feature","properties":{"id":"east","name":"East"},"geometry":{"type":"Polygon","coordinates":[[[2.3522,40],[20,40],[20,60],[2.3522,60],[2.3522,40]]]}}
            ]}
            """)
        try folder.write("city/population.csv", "zone_id,population\nwest,60000\neast,40000\n")
        let run = try cli.pipeline(
            ["run", "traces", "--out", "out", "--json", "--model", model, "--zones", "zones.geojson", "--population", "population.csv"],
            in: root)
        #expect(run.status == 2, "the simulator's cut-off upload is quarantined: \(run.stderr)")
        hashes["city/run.json"] = normaliser.hash(json: run.stdout, name: "city/run.json")
        try normaliser.hashFolder(root + "/out", as: "city/out", into: &hashes)
        let evaluate = try cli.pipeline(["evaluate", "traces", "--model", model, "--json"], in: root)
        #expect(evaluate.status == 0, "\(evaluate.stderr)")
        hashes["city/evaluate.json"] = normaliser.hash(json: evaluate.stdout, name: "city/evaluate.json")
    }

    /// The city's traces as a distributed run's executors see them: two `--partial` parts split
    /// by device name, each exported, and `publish` of one part's store with its tables (the
    /// locations where a distributed run's assembly puts them).
    func distributed(_ folder: TemporaryFolder, into hashes: inout [String: String], normaliser: inout Normaliser) throws {
        let root = folder.file("city")
        for (part, range) in [("part-a", ["--devices-before", "phone-04"]), ("part-b", ["--devices-from", "phone-04"])] {
            let run = try cli.pipeline(["run", "traces", "--out", part, "--partial", "--json", "--model", model] + range, in: root)
            #expect(run.status == 2, "each part reads the cut-off upload of the files every part reads: \(run.stderr)")
            hashes["distributed/\(part).json"] = normaliser.hash(json: run.stdout, name: "distributed/\(part).json")
            try normaliser.hashFolder(root + "/" + part, as: "distributed/\(part)", into: &hashes)
            let export = try cli.pipeline(["export", "--store", "\(part)/pipeline.sqlite", "--out", "export-\(part)"], in: root)
            #expect(export.status == 0, "\(export.stderr)")
            try normaliser.hashFolder(root + "/export-\(part)", as: "distributed/export-\(part)", into: &hashes)
        }
        try FileManager.default.createDirectory(atPath: root + "/published/restricted", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: root + "/part-a/part-tables/locations.csv", toPath: root + "/published/restricted/locations.csv")
        let publish = try cli.pipeline(
            [
                "publish", "--store", "part-a/pipeline.sqlite", "--out", "published", "--tables", "part-a/part-tables",
                "--model", model, "--json"
            ], in: root)
        #expect(publish.status == 0, "\(publish.stderr)")
        hashes["distributed/publish.json"] = normaliser.hash(json: publish.stdout, name: "distributed/publish.json")
        try normaliser.hashFolder(root + "/published", as: "distributed/published", into: &hashes)
    }

    /// What the binary says of its outputs and settings: `schema --json` and `config --print`.
    func descriptions(_ folder: TemporaryFolder, into hashes: inout [String: String], normaliser: inout Normaliser) throws {
        let schema = try cli.pipeline(["schema", "--json"], in: folder.path)
        #expect(schema.status == 0, "\(schema.stderr)")
        hashes["describe/schema.json"] = normaliser.hash(json: schema.stdout, name: "describe/schema.json")
        let config = try cli.pipeline(["config", "--print"], in: folder.path)
        #expect(config.status == 0, "\(config.stderr)")
        hashes["describe/config.yaml"] = normaliser.hash(text: config.stdout, name: "describe/config.yaml")
    }
}

/// Turns an output into the bytes the golden record hashes (see `GoldenOutputTests`), and keeps
/// them for a diff when asked.
struct Normaliser {
    let roots: [String]
    let today: Set<String>
    let now = Date().timeIntervalSince1970
    var kept: [String: Data] = [:]

    init(roots: [String]) {
        self.roots = roots.sorted { $0.count > $1.count }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        today = Set([-86_400.0, 0, 86_400].map { formatter.string(from: Date().addingTimeInterval($0)) })
    }

    static let isoTime = try! NSRegularExpression(pattern: #"(\d{4}-\d{2}-\d{2})[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?"#)
    static let fingerprint = try! NSRegularExpression(pattern: #"complete_run,[0-9a-f]{64}"#)
    static let signature = try! NSRegularExpression(pattern: #"(?<![0-9])([0-9]+):<now>:[0-9]+:[0-9]+"#)
    static let unixSeconds = try! NSRegularExpression(pattern: #"(?<![0-9.])1[0-9]{9}(\.[0-9]+)?(?![0-9])"#)

    mutating func hash(data: Data, name: String) -> String {
        kept[name] = data
        let hasher = SHA256Hasher()
        hasher.update(data: data)
        return hasher.hexDigest()
    }

    mutating func hash(text: String, name: String) -> String {
        hash(data: Data(mask(text).utf8), name: name)
    }

    /// JSON with its keys sorted and the stages' timings masked.
    mutating func hash(json: String, name: String) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)),
            let data = try? JSONSerialization.data(
                withJSONObject: Self.maskTimings(object), options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
        else {
            return hash(text: json, name: name)
        }
        return hash(text: String(decoding: data, as: UTF8.self), name: name)
    }

    static func maskTimings(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            return Dictionary(
                uniqueKeysWithValues: object.map { key, value in
                    (key, ["stage_seconds", "seconds"].contains(key) || key.hasPrefix("seconds_") ? "<timing>" : maskTimings(value))
                })
        }
        if let array = value as? [Any] { return array.map(maskTimings) }
        return value
    }

    /// `text` with the scenario's folders and the run's times masked.
    func mask(_ text: String) -> String {
        var text = text
        for (index, root) in roots.enumerated() { text = text.replacingOccurrences(of: root, with: "<root\(index)>") }
        let iso = Self.isoTime.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed()
        for match in iso {
            guard let date = Range(match.range(at: 1), in: text).map({ String(text[$0]) }), today.contains(date),
                let whole = Range(match.range, in: text)
            else { continue }
            text.replaceSubrange(whole, with: "<now>")
        }
        for match in Self.unixSeconds.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed() {
            guard let whole = Range(match.range, in: text), let value = Double(text[whole]), abs(value - now) < 172_800 else { continue }
            text.replaceSubrange(whole, with: "<now>")
        }
        // A file signature written out (size:mtime:inode:device, as `export` writes input_files),
        // and the run fingerprint over the inputs' places (`export`'s derived_state.csv).
        text = Self.signature.stringByReplacingMatches(
            in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "$1:<now>:<inode>:<device>")
        return Self.fingerprint.stringByReplacingMatches(
            in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "complete_run,<masked>")
    }

    /// Every file under `path` (recursively), each as `name/relative path`; SQLite files as rows.
    mutating func hashFolder(_ path: String, as name: String, into hashes: inout [String: String]) throws {
        let files = (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? []).sorted()
        for relative in files {
            let file = (path as NSString).appendingPathComponent(relative)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file, isDirectory: &isFolder), !isFolder.boolValue,
                !relative.hasSuffix(".lock"), !relative.hasSuffix("-wal"), !relative.hasSuffix("-shm")
            else { continue }
            let key = name + "/" + relative
            if relative.hasSuffix(".sqlite") || relative.hasSuffix(".gpkg") {
                hashes[key] = hash(text: try Self.rows(file), name: key)
            } else if let data = FileManager.default.contents(atPath: file) {
                let text = String(data: data, encoding: .utf8)
                let binary = relative.hasSuffix(".png") || relative.hasSuffix(".gz") || relative.hasSuffix(".zip") || text == nil
                hashes[key] =
                    binary
                    ? hash(data: data, name: key)
                    : (relative.hasSuffix(".json") ? hash(json: text!, name: key) : hash(text: text!, name: key))
            }
        }
    }

    /// A SQLite file's rows as text, table by table, with the columns and rows that record when
    /// and where it ran masked.
    static func rows(_ path: String) throws -> String {
        var configuration = Configuration()
        configuration.readonly = true
        let database = try DatabaseQueue(path: path, configuration: configuration)
        return try database.read { db in
            var text = ""
            for table in try String.fetchAll(
                db,
                sql:
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'rtree_%' ORDER BY name"
            ) {
                let withoutRowID =
                    try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = ?", arguments: [table])?
                    .uppercased().contains("WITHOUT ROWID") ?? false
                text += "# " + table + "\n"
                for row in try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\"" + (withoutRowID ? "" : " ORDER BY rowid")) {
                    let fields = row.map { column, value -> String in
                        if ["last_change", "file_signature"].contains(column) { return "<masked>" }
                        if table == "derived_state", column == "value", row["key"] as String? == "complete_run" { return "<masked>" }
                        if case .blob(let data) = value.storage {
                            let hasher = SHA256Hasher()
                            hasher.update(data: data)
                            return "blob:" + hasher.hexDigest()
                        }
                        return value.description
                    }
                    text += fields.joined(separator: "|") + "\n"
                }
            }
            return text
        }
    }

    func keep(in folder: String) throws {
        for (name, data) in kept {
            let file = (folder as NSString).appendingPathComponent(name)
            try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: file))
        }
    }
}
