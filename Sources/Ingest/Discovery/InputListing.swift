import Foundation
import MobilityCore

/// `pipeline inputs`: the files a run would read, each with its format, size and device,
/// found the way `ingest` finds them (the same discovery, detection, manifests in discovery
/// order and `--name-pattern`) but without reading their records: only the first lines a
/// format needs to be recognised. For planning work by device and bytes (partitions of a
/// distributed run, batches of a nightly job) before anything is ingested.
public struct InputListing {
    public var paths: [String]
    public var columns = ColumnMappings()
    public var namePattern: String?
    /// Output folders never listed as inputs (a run's `--out`), besides any folder holding a store.
    public var excludedFolders: [String] = []

    public init(paths: [String]) {
        self.paths = paths
    }

    public struct Entry: Codable, Sendable, Equatable {
        public var path: String
        /// The format `ingest` would read it as; nil when it would skip or quarantine the file.
        public var format: String?
        /// Bytes on disk (all files of an export folder).
        public var bytes: Int64
        /// The device the file belongs to, by `ingest`'s rules (also for a file it would
        /// quarantine, which is recorded against that path).
        public var device: String
        /// Where the device came from: `manifest`, `name_pattern`, `folder` or `file_name`.
        public var deviceSource: String
        /// The person who carried it (the device itself when none is named) and where that came
        /// from: `manifest`, `name_pattern`, or `device`.
        public var person: String
        public var personSource: String
        /// The whole-file mode label from a manifest or `--name-pattern`, if any.
        public var mode: String?
        /// True for one device's recording; false for a table that names devices per row or
        /// none (geofences, check-ins, label CSVs, manifests), which every device may need.
        public var perDevice: Bool
        /// What `ingest` would do instead of reading it: skip it (not a trace, not a regular
        /// file) or quarantine it (unreadable), with why. A file found malformed only while its
        /// records are read (a GPX cut short) is listed with its format, and quarantined by `ingest`.
        public var note: String?

        enum CodingKeys: String, CodingKey {
            case path, format, bytes, device, mode, note, person
            case deviceSource = "device_source", perDevice = "per_device", personSource = "person_source"
        }

        /// Every key in every object, `null` where there is no value (a steady shape for the
        /// tools that read the list).
        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(path, forKey: .path)
            try container.encode(format, forKey: .format)
            try container.encode(bytes, forKey: .bytes)
            try container.encode(device, forKey: .device)
            try container.encode(deviceSource, forKey: .deviceSource)
            try container.encode(person, forKey: .person)
            try container.encode(personSource, forKey: .personSource)
            try container.encode(mode, forKey: .mode)
            try container.encode(perDevice, forKey: .perDevice)
            try container.encode(note, forKey: .note)
        }
    }

    public func run() throws -> [Entry] {
        var catalog = try InputCatalog(namePattern: namePattern, mappings: columns)
        try InputPath.requireExisting(paths)
        let inputs = try InputDiscovery.discover(paths, excluding: excludedFolders)
        catalog.survey(inputs)
        return inputs.map { input in
            let (verdict, identity) = catalog.examine(input)
            var format: InputFormat?, note: String?
            switch verdict {
            case .read(let detected): format = detected
            case .skip(let reason, _): note = "skipped: " + reason
            case .quarantine(let error, _): note = "quarantined: \(error.code.rawValue): \(error.message)"
            }
            return Entry(
                path: input.path, format: format?.kind.rawValue, bytes: InputFileSize.bytes(input.path), device: identity.device,
                deviceSource: identity.deviceSource, person: identity.person, personSource: identity.personSource,
                mode: identity.mode, perDevice: format?.kind.isDeviceRecording ?? true, note: note)
        }
    }
}
