import Foundation
import MobilityCore

/// Who recorded an input: the device (a phone or logger) and the person (participant) who
/// carried it, each with where its name came from.
public struct RecordingIdentity: Hashable, Sendable {
    public var device: String
    /// The participant. Without person information a device is taken as its own person
    /// (`personSource` "device"), so privacy thresholds counting persons never count one person
    /// twice for one device, but may count one person's two devices twice: the report says so.
    public var person: String
    /// The whole-file mode label from a manifest or `--name-pattern`, if any.
    public var mode: String?
    /// Where the device name came from: `manifest`, `name_pattern`, `table_column`, `folder`,
    /// `folder_and_export` (`<folder>/<phone>`), `folder_and_track` (`<folder>/<track>`),
    /// `export_metadata` or `file_name`.
    public var deviceSource: String
    /// Where the person came from: `manifest`, `name_pattern`, `table_column`, `folder` (a folder
    /// holding two phones' exports or two tracks at once far apart: one person, several
    /// devices), or `device` (none given).
    public var personSource: String
    /// The IANA zone of the device's local time, from the manifest's `timezone`; nil when none was given.
    public var timeZone: String? = nil
}

/// Decides which device and person an input belongs to, in this order:
///
/// 1. `manifest.csv` (`path,device[,person][,mode]`; `path` may be a glob such as `alice/*.gpx`)
///    in the input's folder or any folder above it within the run's inputs;
/// 2. `--name-pattern REGEX` with a named group `device` (and optionally `person`, `mode`),
///    matched against the file name, e.g. `sensorfile_(?<device>[^_]+)_(?<mode>[^_]+)_\d+\.csv`;
/// 3. a position table's own `device` column (`PositionTableReader`: every row names the same);
/// 4. the folder holding the file, when that folder is below a folder given to the run, or
///    when the file was given by itself (GeoLife's `<user>/Trajectory/` counts as `<user>`);
/// 5. else (an input directly in a folder given to the run) a Sensor Logger export's own
///    `device id` (`Metadata.csv`: the app's install, the same in every export of one phone),
///    named `<device name>-<first 8 characters of the id>`, so one phone's many export folders
///    or zips are one device, not one each;
/// 6. else the file name without its known extensions (`KnownExtensions`): `anna.smith.gpx`
///    is `anna.smith`, `x.gpx.gz` is `x`; a name is never cut at its first dot.
///
/// The folder comes before the export's metadata (the issue asked the other order): a folder
/// per participant is the common layout, and it holds that participant's GPX tracks too, which
/// an export's id would split from their IMU recordings. Never the GPX `author`/`creator` nor a
/// phone model alone (phyphox `meta/device.csv`): they name an app or a model that many people
/// share, so they would merge unrelated files into one device.
///
/// A position table's `user_id` (or `person`, `participant`) column names the person, after a
/// manifest and `--name-pattern`; the device stays the file's (a `user_id` 1 in two data sets
/// is not one phone).
///
/// Check-in and label CSVs name their devices per row and use this only as a fallback.
///
/// A folder that names the device but holds exports of two or more phones (Sensor Logger's
/// `device id`, phyphox's `meta/device.csv` model: `PhoneSurvey`) holds more than one device:
/// each export is then the device `<folder>/<phone>` and every file there, its GPX tracks too,
/// belongs to the person `<folder>` (`personSource` "folder"), so k counts the folder once and
/// no trip joins two phones' recordings. Two phones of one model in one folder stay one device.
/// Likewise a GPS track that overlaps another track of the folder in time while far from it
/// (`TrackSurvey`) is the device `<folder>/<track name>` (`folder_and_track`; the tracks
/// recorded with it close by, such as a re-upload cut short, are the same device) of the person
/// `<folder>`.
public struct DeviceResolver: Sendable {
    public var manifest = Manifest()
    public var namePattern: NSRegularExpression?
    /// Exports in folders that hold two or more phones, each with its phone (`PhoneSurvey`).
    public var phones = PhoneSurvey()
    /// Tracks in one folder that overlap in time far apart (`TrackSurvey`).
    public var tracks = TrackSurvey()

    public init(namePattern: String? = nil) throws {
        if let namePattern {
            do { self.namePattern = try NSRegularExpression(pattern: namePattern) } catch {
                throw PipelineError(.invalidIdentity, "--name-pattern is not a valid regular expression: \(namePattern)")
            }
            guard ["(?<device>", "(?<mode>", "(?<person>"].contains(where: namePattern.contains) else {
                throw PipelineError(
                    .invalidIdentity, "--name-pattern needs a named group (?<device>…), (?<person>…) or (?<mode>…): \(namePattern)")
            }
        }
    }

    /// The identity of the input at `path`, found under `root` (both standardised, as
    /// `InputDiscovery` gives them).
    public func identify(path: String, root: String) -> RecordingIdentity {
        var identity = identifyNames(path: path, root: root)
        identity.timeZone = manifest.isEmpty ? nil : manifest.entry(for: path)?.timeZone
        return identity
    }

    private func identifyNames(path: String, root: String) -> RecordingIdentity {
        let fromPattern = patternGroups(path)
        let entry = manifest.isEmpty ? nil : manifest.entry(for: path)
        let mode = entry?.mode ?? fromPattern["mode"]
        var device: String, deviceSource: String
        // Read (two lines of a table) only when neither the manifest nor the pattern names both.
        let needsTable = entry == nil && fromPattern["device"] == nil || entry?.person == nil && fromPattern["person"] == nil
        let table =
            needsTable && ["csv", "tsv", "txt"].contains(FormatDetector.familyExtension(path))
            ? PositionTableReader.identity(path: path) : nil
        if let entry {
            (device, deviceSource) = (entry.device, "manifest")
        } else if let named = fromPattern["device"] {
            (device, deviceSource) = (named, "name_pattern")
        } else if let table, !table.isPerson {
            (device, deviceSource) = (table.name, "table_column")
        } else {
            (device, deviceSource) = DeviceResolver.pathDevice(path: path, root: root)
        }
        var sharedFolder = deviceSource == "folder" ? phones.sharedFolder(of: path) : nil
        if let sharedFolder, let phone = phones.phone(of: path) {
            (device, deviceSource) = ((sharedFolder as NSString).lastPathComponent + "/" + phone, "folder_and_export")
        } else if deviceSource == "folder", let track = tracks.devices[path] {
            // A track that overlaps another far apart: a phone of its own, of the folder's person.
            sharedFolder = device
            (device, deviceSource) = (device + "/" + track, "folder_and_track")
        }
        if let person = entry?.person {
            return RecordingIdentity(device: device, person: person, mode: mode, deviceSource: deviceSource, personSource: "manifest")
        }
        if let person = fromPattern["person"] {
            return RecordingIdentity(device: device, person: person, mode: mode, deviceSource: deviceSource, personSource: "name_pattern")
        }
        if let table, table.isPerson {
            return RecordingIdentity(
                device: device, person: table.name, mode: mode, deviceSource: deviceSource, personSource: "table_column")
        }
        if let sharedFolder {
            return RecordingIdentity(
                device: device, person: (sharedFolder as NSString).lastPathComponent, mode: mode,
                deviceSource: deviceSource, personSource: "folder")
        }
        return RecordingIdentity(device: device, person: device, mode: mode, deviceSource: deviceSource, personSource: "device")
    }

    /// The device and whole-file mode label of the input at `path` (see `identify`).
    public func resolve(path: String, root: String) -> (device: String, mode: String?, source: String) {
        let identity = identify(path: path, root: root)
        return (identity.device, identity.mode, identity.deviceSource)
    }

    private func patternGroups(_ path: String) -> [String: String] {
        guard let namePattern else { return [:] }
        let name = (path as NSString).lastPathComponent
        guard let match = namePattern.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) else { return [:] }
        var groups: [String: String] = [:]
        for group in ["device", "person", "mode"] {
            let range = match.range(withName: group)
            guard range.location != NSNotFound, let swiftRange = Range(range, in: name), !swiftRange.isEmpty else { continue }
            groups[group] = String(name[swiftRange])
        }
        return groups
    }

    /// The device a path names by itself: its folder below the root, else its file name.
    static func pathDevice(path: String, root: String) -> (String, String) {
        var folder = (path as NSString).deletingLastPathComponent
        if (folder as NSString).lastPathComponent.lowercased() == "trajectory" {
            folder = (folder as NSString).deletingLastPathComponent
        }
        if path != root, folder.hasPrefix(root), folder.count > root.count {
            return ((folder as NSString).lastPathComponent, "folder")
        }
        if path.lowercased().hasSuffix(".zip") || FileKind(path: path) != .regular, let phone = SensorLogger.phone(export: path) {
            return ("\(phone.name)-\(phone.id.prefix(8))", "export_metadata")
        }
        return (KnownExtensions.strip((path as NSString).lastPathComponent), "file_name")
    }
}

/// The extensions a file name loses when it names a device: the formats the pipeline reads and
/// their compressions, taken from the end only (`walk.2024.gpx.gz` → `walk.2024`). Anything
/// else is part of the name.
public enum KnownExtensions {
    public static let all: Set<String> = ["gz", "zip", "gpx", "plt", "csv", "tsv", "txt", "json", "geojson"]

    public static func strip(_ name: String) -> String {
        var name = name
        while let dot = name.lastIndex(of: "."), dot != name.startIndex,
            all.contains(name[name.index(after: dot)...].lowercased())
        {
            name = String(name[..<dot])
        }
        return name
    }
}

/// Which folders hold exports of more than one phone (`DeviceResolver`), surveyed once over a
/// run's inputs before any is read: an export's phone is Sensor Logger's `device name` and
/// `device id` (`Metadata.csv`), else phyphox's brand and model (`meta/device.csv`).
public struct PhoneSurvey: Sendable {
    /// Folder → its exports' phones, for folders with two or more.
    private var folders: [String: [String: String]] = [:]

    public init() {}

    /// Surveys the folders holding exports (folders and zips) among `inputs`: every export in
    /// them, given or not, so a part of a distributed run that was given one phone's exports
    /// names them as the whole run does.
    public init(_ inputs: [DiscoveredInput]) {
        var byFolder: [String: [String: String]] = [:]
        let holding = Set(
            inputs.filter { $0.problem == nil && Self.mayBeExport($0.path) }.map { ($0.path as NSString).deletingLastPathComponent })
        for folder in holding.sorted() {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for name in names.sorted() where !name.hasPrefix(".") {
                let path = (folder as NSString).appendingPathComponent(name)
                guard Self.mayBeExport(path), let phone = Self.phone(ofExport: path) else { continue }
                byFolder[folder, default: [:]][path] = phone
            }
        }
        folders = byFolder.filter { Set($0.value.values).count >= 2 }
    }

    static func mayBeExport(_ path: String) -> Bool { path.lowercased().hasSuffix(".zip") || FileKind(path: path).isFolder }

    /// The folder holding `path` when it holds two or more phones' exports.
    public func sharedFolder(of path: String) -> String? {
        let folder = (path as NSString).deletingLastPathComponent
        return folders[folder] == nil ? nil : folder
    }

    /// The phone of an export in such a folder.
    public func phone(of path: String) -> String? { folders[(path as NSString).deletingLastPathComponent]?[path] }

    /// `<device name>-<first 8 characters of the id>` (Sensor Logger) or `<brand> <model>` (phyphox).
    static func phone(ofExport path: String) -> String? {
        if let phone = SensorLogger.phone(export: path) { return "\(phone.name)-\(phone.id.prefix(8))" }
        return Phyphox.phoneModel(export: path)
    }
}
