import Features
import Ingest
import MobilityCore

/// Reads traces straight from files into `Recording`s for the feature, training and
/// classification commands, with the same detection, cleaning, device naming and quarantine
/// rules as ingest. Label files (GeoLife `labels.txt`, label CSVs) and manifests are read
/// first, so their labels apply to every recording of their device whatever the file order.
/// Recordings are handed over one at a time: memory holds one trace, not the whole input.
public struct RecordingLoader {
    public var cleaning = CleaningParameters()
    public var namePattern: String?
    public var columns: ColumnMappingSpec?

    public init() {}

    public struct Report: Sendable {
        public var recordings = 0
        public var quarantined: [InputError] = []
        /// Label names that map to no product mode, with the windows' sources.
        public var unknownModes: Set<String> = []
        public var skipped = 0
    }

    public func load(_ paths: [String], progress: Progress, each: (Recording) throws -> Void) throws -> Report {
        var report = Report()
        let inputs = try InputDiscovery.discover(paths)
        var devices = try DeviceResolver(namePattern: namePattern)
        let detector = FormatDetector(explicitMapping: columns)
        var detected: [(DiscoveredInput, InputFormat)] = []
        for input in inputs {
            do {
                guard let format = try detector.detect(path: input.path) else { report.skipped += 1; continue }
                if case .manifest = format {
                    var dropped = DropCounts()
                    try devices.manifest.load(path: input.path, dropped: &dropped)
                }
                detected.append((input, format))
            } catch let error as InputError {
                quarantine(error, report: &report, progress: progress)
            }
        }
        var sharedLabels: [LabelInterval] = []
        let isLabelFile: (InputFormat.Kind) -> Bool = { $0 == .geoLifeLabels || $0 == .labelsCSV }
        for (input, format) in detected where isLabelFile(format.kind) {
            do {
                sharedLabels += try Ingestor(cleaning: cleaning, devices: devices).ingest(input, format: format, into: DiscardingSink()).labels
            } catch let error as InputError {
                quarantine(error, report: &report, progress: progress)
            }
        }
        let recordings = detected.filter { [.gpx, .plt, .imuCSV, .androidEventLog, .sensorLogger].contains($0.1.kind) }
        for (index, (input, format)) in recordings.enumerated() {
            progress.update(done: index, total: recordings.count, item: input.path)
            let sink = RecordingSink()
            do {
                let result = try Ingestor(cleaning: cleaning, devices: devices).ingest(input, format: format, into: sink)
                let labels = result.labels + sharedLabels.filter { $0.device == result.device }
                report.unknownModes.formUnion(labels.filter { $0.mode == nil }.map(\.rawName))
                try each(Recording(trace: input.path, device: result.device, streams: sink.streams, fixes: sink.fixes, labels: labels))
                report.recordings += 1
            } catch let error as InputError {
                quarantine(error, report: &report, progress: progress)
            }
        }
        progress.update(done: recordings.count, total: recordings.count, item: "")
        return report
    }

    private func quarantine(_ error: InputError, report: inout Report, progress: Progress) {
        report.quarantined.append(error)
        progress.log("quarantined \(error)")
    }
}
