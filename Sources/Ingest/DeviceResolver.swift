import Foundation

/// Decides which device an input belongs to, in this order:
///
/// 1. `manifest.csv` (`path,device[,mode]`) in the input's folder or any folder above it
///    within the run's inputs;
/// 2. `--name-pattern REGEX` with a named group `device` (and optionally `mode`), matched
///    against the file name, e.g. `sensorfile_(?<device>[^_]+)_(?<mode>[^_]+)_\d+\.csv`;
/// 3. the folder holding the file, when that folder is below a folder given to the run, or
///    when the file was given by itself (GeoLife's `<user>/Trajectory/` counts as `<user>`);
///    else (a file directly in a folder given to the run) the file name without extensions.
///
/// Never the GPX `author`/`creator`: they name a person or an app (every file a phone's app
/// writes carries the same creator), so they would merge unrelated files into one device.
///
/// Check-in and label CSVs name their devices per row and use this only as a fallback.
public struct DeviceResolver: Sendable {
    public var manifest = Manifest()
    public var namePattern: NSRegularExpression?

    public init(namePattern: String? = nil) throws {
        if let namePattern {
            do { self.namePattern = try NSRegularExpression(pattern: namePattern) } catch {
                throw ResolverError(description: "--name-pattern is not a valid regular expression: \(namePattern)")
            }
            guard namePattern.contains("(?<device>") || namePattern.contains("(?<mode>") else {
                throw ResolverError(description: "--name-pattern needs a named group (?<device>…) or (?<mode>…): \(namePattern)")
            }
        }
    }

    public struct ResolverError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The device and whole-file mode label of the input at `path`, found under `root` (both
    /// standardised, as `InputDiscovery` gives them).
    public func resolve(path: String, root: String) -> (device: String, mode: String?, source: String) {
        let fromPattern = patternGroups(path)
        let manifestEntry = manifest.entries.isEmpty ? nil : manifest.entry(for: path)
        let mode = manifestEntry?.mode ?? fromPattern.mode
        if let entry = manifestEntry { return (entry.device, mode, "manifest") }
        if let device = fromPattern.device { return (device, mode, "name_pattern") }
        return (DeviceResolver.folderDevice(path: path, root: root), mode, "folder")
    }

    private func patternGroups(_ path: String) -> (device: String?, mode: String?) {
        guard let namePattern else { return (nil, nil) }
        let name = (path as NSString).lastPathComponent
        guard let match = namePattern.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) else { return (nil, nil) }
        func group(_ group: String) -> String? {
            let range = match.range(withName: group)
            guard range.location != NSNotFound, let swiftRange = Range(range, in: name) else { return nil }
            return String(name[swiftRange])
        }
        return (group("device"), group("mode"))
    }

    static func folderDevice(path: String, root: String) -> String {
        var folder = (path as NSString).deletingLastPathComponent
        if (folder as NSString).lastPathComponent.lowercased() == "trajectory" {
            folder = (folder as NSString).deletingLastPathComponent
        }
        if path != root, folder.hasPrefix(root), folder.count > root.count {
            return (folder as NSString).lastPathComponent
        }
        var name = (path as NSString).lastPathComponent
        while !(name as NSString).pathExtension.isEmpty { name = (name as NSString).deletingPathExtension }
        return name
    }
}
