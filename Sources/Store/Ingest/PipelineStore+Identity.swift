import Foundation
import GRDB

/// Inputs as contents: a stored input found under another path is moved, not read again;
/// inputs whose files are gone are listed and, when asked, pruned; devices and persons are
/// forgotten everywhere.
extension PipelineStore {
    /// A stored input, as identity decisions need it.
    public struct StoredInput: Hashable, Sendable {
        public var path: String
        public var contentSHA256: String
        public var status: String
        public var device: String?
        public var person: String?
        public var fileSignature: String?
    }

    private static let storedInputColumns = "path, content_sha256, status, device, person, file_signature"

    private static func storedInput(_ row: Row) -> StoredInput {
        StoredInput(path: row[0], contentSHA256: row[1], status: row[2], device: row[3], person: row[4], fileSignature: row[5])
    }

    /// Stored inputs with this content (hash), in path order.
    public func storedInputs(sha256: String) throws -> [StoredInput] {
        guard !sha256.isEmpty else { return [] }
        return try database.read { db in
            try Row.fetchAll(
                db, sql: "SELECT \(Self.storedInputColumns) FROM input_files WHERE content_sha256 = ? ORDER BY path",
                arguments: [sha256]
            ).map(Self.storedInput)
        }
    }

    /// Stored inputs whose file-system signature (size, modification time, inode, device) is
    /// `signature`: a file moved within one file system keeps it.
    public func storedInputs(signature: String) throws -> [StoredInput] {
        try database.read { db in
            try Row.fetchAll(
                db, sql: "SELECT \(Self.storedInputColumns) FROM input_files WHERE file_signature = ? ORDER BY path",
                arguments: [signature]
            ).map(Self.storedInput)
        }
    }

    /// The manifests among the stored inputs (read, not quarantined), in path order.
    public func manifestPaths() throws -> [String] {
        try database.read { db in
            try String.fetchAll(db, sql: "SELECT path FROM input_files WHERE format = 'manifest' AND status = 'ingested' ORDER BY path")
        }
    }

    /// Every stored input, in path order.
    public func storedInputs() throws -> [StoredInput] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT \(Self.storedInputColumns) FROM input_files ORDER BY path").map(Self.storedInput)
        }
    }

    /// The stored input at `from` is now at `to`: its rows stay, its path, shown path and
    /// signature change, and its classified windows follow it (they are keyed by path).
    public func moveInput(from: String, to: String, relativePath: String, signature: String?) throws {
        try database.write { db in
            try Self.windowsOf(path: from, db: db, set: "UPDATE mode_windows SET trace = ?", [to])
            try db.execute(
                sql: "UPDATE input_files SET path = ?, relative_path = ?, file_signature = ? WHERE path = ?",
                arguments: [to, relativePath, signature, from])
        }
    }

    /// Runs `statement` (an UPDATE or DELETE of `mode_windows`, its own `arguments` first) on
    /// the windows of the input at `path`, by the table's key (device, trace): a condition on
    /// the trace alone scans every window of the store (404 moved inputs of 200 device-days
    /// took 6.2 s so).
    private static func windowsOf(path: String, db: Database, set statement: String, _ arguments: [DatabaseValueConvertible?] = []) throws {
        try db.execute(
            sql: statement + " WHERE device = (SELECT COALESCE(device, path) FROM input_files WHERE path = ?) AND trace = ?",
            arguments: StatementArguments(arguments + [path, path]))
    }

    /// Records the path shown in outputs for the input at `path` (below the folder given).
    public func setRelativePath(_ relativePath: String, path: String) throws {
        try database.write { db in
            try db.execute(sql: "UPDATE input_files SET relative_path = ? WHERE path = ?", arguments: [relativePath, path])
        }
    }

    /// Paths as outputs show them: each stored input's path below the folder given to the run
    /// that read it (its absolute path where none is known).
    public func shownPaths() throws -> [String: String] {
        try database.read { db in
            var shown: [String: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT path, relative_path FROM input_files") {
                shown[row[0]] = (row[1] as String?) ?? row[0]
            }
            return shown
        }
    }

    /// Removes the stored inputs at `paths` and every row derived from them (their fixes,
    /// windows, labels, check-ins … by cascade; windows by path), in one transaction.
    public func removeInputs(paths: [String]) throws {
        guard !paths.isEmpty else { return }
        try database.write { db in
            for path in paths {
                try Self.windowsOf(path: path, db: db, set: "DELETE FROM mode_windows")
                try db.execute(sql: "DELETE FROM input_files WHERE path = ?", arguments: [path])
            }
        }
    }

    /// What `forget` removed.
    public struct Forgotten: Hashable, Sendable, Encodable {
        public var devices: [String] = []
        public var persons: [String] = []
        public var inputFiles = 0, fixes = 0, windows = 0, checkins = 0, labels = 0, deviceCells = 0
        enum CodingKeys: String, CodingKey {
            case devices, persons, inputFiles = "input_files", fixes, windows, checkins, labels, deviceCells = "heatmap_device_cells"
        }
    }

    /// The names given to `forget`, sorted: those the store holds rows of, those forgotten
    /// before (nothing of them is left), and those it knows nothing of, each with the stored
    /// names it may have meant.
    public struct ForgetNames: Sendable, Encodable, Equatable {
        public struct Name: Sendable, Encodable, Equatable {
            /// "device" or "person".
            public var kind: String
            public var name: String
            /// Stored names that differ only in case, start with it (or it with them), or are
            /// one or two letters away; at most `suggestionLimit`, the rest counted.
            public var nearMatches: [String] = []
            public var moreNearMatches = 0
            enum CodingKeys: String, CodingKey { case kind, name, nearMatches = "near_matches", moreNearMatches = "more_near_matches" }

            /// "person Zijie (did you mean zijie?)".
            public var described: String {
                "\(kind) \(name)"
                    + (nearMatches.isEmpty
                        ? ""
                        : " (did you mean \(nearMatches.joined(separator: ", "))"
                            + (moreNearMatches > 0 ? " or \(moreNearMatches) more" : "") + "?)")
            }
        }
        public var known: [Name] = []
        public var alreadyForgotten: [Name] = []
        public var unknown: [Name] = []
        enum CodingKeys: String, CodingKey { case known, alreadyForgotten = "already_forgotten", unknown }
    }

    /// Suggestions shown per unknown name.
    public static let suggestionLimit = 5

    /// Sorts `devices` and `persons` as `ForgetNames` says; reads only.
    public func forgetNames(devices: [String], persons: [String]) throws -> ForgetNames {
        try database.read { db in
            let storedDevices = try String.fetchAll(
                db,
                sql: """
                    SELECT device FROM input_files WHERE device IS NOT NULL UNION SELECT device FROM checkins UNION SELECT device FROM labels
                    """)
            let storedPersons = try String.fetchAll(
                db, sql: "SELECT DISTINCT COALESCE(person, device) FROM input_files WHERE device IS NOT NULL")
            let forgotten = Set(
                try Row.fetchAll(db, sql: "SELECT kind, name FROM forgotten").map { "\(($0[0] as String)) \(($0[1] as String))" })
            var names = ForgetNames()
            for (kind, given, stored) in [("device", devices, storedDevices), ("person", persons, storedPersons)] {
                let storedSet = Set(stored)
                for name in Set(given).sorted() {
                    var entry = ForgetNames.Name(kind: kind, name: name)
                    if storedSet.contains(name) {
                        names.known.append(entry)
                    } else if forgotten.contains("\(kind) \(name)") {
                        names.alreadyForgotten.append(entry)
                    } else {
                        let near = stored.compactMap { stored in Self.nearness(name, stored).map { ($0, stored) } }.sorted { $0 < $1 }.map(
                            \.1)
                        entry.nearMatches = Array(near.prefix(Self.suggestionLimit))
                        entry.moreNearMatches = max(0, near.count - Self.suggestionLimit)
                        names.unknown.append(entry)
                    }
                }
            }
            return names
        }
    }

    /// How near a stored name is to `given`, nil when it is not one a user may have meant:
    /// 0 the same but for case, 1 one starting with the other (case aside), 2 or 3 one or two
    /// edits away (names of 4 letters or more). Suggestions are shown nearest first.
    static func nearness(_ given: String, _ stored: String) -> Int? {
        let a = given.lowercased(), b = stored.lowercased()
        if a == b { return 0 }
        if (!a.isEmpty && b.hasPrefix(a)) || (!b.isEmpty && a.hasPrefix(b)) { return 1 }
        guard min(a.count, b.count) >= 4, abs(a.count - b.count) <= 2 else { return nil }
        let x = Array(a), y = Array(b)
        var previous = Array(0...y.count)
        for i in 1...x.count {
            var current = [i] + [Int](repeating: 0, count: y.count)
            for j in 1...y.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[y.count] <= 2 ? 1 + previous[y.count] : nil
    }

    /// Removes every row of the given devices and persons (a person's devices with them) in one
    /// transaction, and lists them as forgotten so later runs never read their inputs again.
    /// Derived tables (staypoints, trips, heat maps, rides) are rebuilt by the next stages.
    public func forget(devices: [String], persons: [String]) throws -> Forgotten {
        try database.write { db in
            var devices = Set(devices)
            for person in persons {
                devices.formUnion(
                    try String.fetchAll(
                        db,
                        sql: """
                            SELECT DISTINCT device FROM input_files WHERE COALESCE(person, device) = ? AND device IS NOT NULL
                            """,
                        arguments: [person]))
            }
            var forgotten = Forgotten(devices: devices.sorted(), persons: Set(persons).sorted())
            let now = Date().timeIntervalSince1970
            for device in forgotten.devices {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO forgotten (kind, name, forgotten_unix_s) VALUES ('device', ?, ?)", arguments: [device, now]
                )
            }
            for person in forgotten.persons {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO forgotten (kind, name, forgotten_unix_s) VALUES ('person', ?, ?)", arguments: [person, now]
                )
            }
            try Self.purgeForgotten(db, counting: &forgotten)
            return forgotten
        }
    }

    /// Drops whatever rows of forgotten devices and persons a run has stored since (check-ins
    /// and labels name devices per row, so a shared table read again brings theirs back).
    public func purgeForgotten() throws -> Forgotten {
        try database.write { db in
            var forgotten = Forgotten()
            try Self.purgeForgotten(db, counting: &forgotten)
            return forgotten
        }
    }

    private static func purgeForgotten(_ db: Database, counting forgotten: inout Forgotten) throws {
        // Every run calls this: with nobody forgotten it must not scan the windows and check-ins.
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM forgotten)") == true else { return }
        let devices = "(SELECT name FROM forgotten WHERE kind = 'device')"
        let persons = "(SELECT name FROM forgotten WHERE kind = 'person')"
        // A row stored before persons were recorded has none: its device is its person.
        let files = "device IN \(devices) OR COALESCE(person, device) IN \(persons)"
        forgotten.fixes += try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(fixes), 0) FROM input_files WHERE \(files)") ?? 0
        try db.execute(sql: "DELETE FROM mode_windows WHERE device IN \(devices) OR trace IN (SELECT path FROM input_files WHERE \(files))")
        forgotten.windows += db.changesCount
        // A person's days count all their devices: a forgotten device takes its person's days
        // with it until the next trip stage counts them anew without it.
        let touched = "(SELECT COALESCE(person, device) FROM input_files WHERE \(files)) OR person IN \(devices) OR person IN \(persons)"
        try db.execute(sql: "DELETE FROM person_days WHERE person IN \(touched)")
        try db.execute(sql: "DELETE FROM untracked_intervals WHERE person IN \(touched)")
        try db.execute(sql: "DELETE FROM diary_episodes WHERE person IN \(touched) OR device IN \(devices)")
        try db.execute(sql: "DELETE FROM input_files WHERE \(files)")
        forgotten.inputFiles += db.changesCount
        try db.execute(sql: "DELETE FROM checkins WHERE device IN \(devices)")
        forgotten.checkins += db.changesCount
        try db.execute(sql: "DELETE FROM labels WHERE device IN \(devices)")
        forgotten.labels += db.changesCount
        try db.execute(sql: "DELETE FROM heatmap_device_cells WHERE device IN \(devices) OR COALESCE(person, device) IN \(persons)")
        forgotten.deviceCells += db.changesCount
        // Which of their trips a window released: the release itself is final (re-releasing it
        // without them would give them away by difference), the record of their trips is not kept.
        try db.execute(sql: "DELETE FROM released_trips WHERE device IN \(devices)")
        try db.execute(sql: "DELETE FROM device_zones WHERE device IN \(devices)")
    }

    /// Whether a recording of `device` carried by `person` was forgotten.
    public func isForgotten(device: String, person: String) throws -> Bool {
        try database.read { db in
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM forgotten WHERE (kind = 'device' AND name = ?) OR (kind = 'person' AND name = ?))
                    """, arguments: [device, person]) ?? false
        }
    }
}
