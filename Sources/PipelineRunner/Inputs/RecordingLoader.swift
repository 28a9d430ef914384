import Features
import Ingest
import MobilityCore

/// Reads traces straight from files into `Recording`s for the feature, training and
/// classification commands, with the same detection, cleaning, device naming and quarantine
/// rules as ingest. Label files (GeoLife `labels.txt`, label CSVs) and manifests are read
/// first, so their labels apply to every recording of their device whatever the file order.
///
/// A device's GPS tracks (GPX, PLT) and its IMU recordings are joined: GPS files are read
/// first, an IMU recording gets the fixes of its device that fall in its span (so its windows
/// have GPS features), and the GPS tracks are then windowed only where no IMU recording of the
/// device covers them, so no stretch of time is classified twice. IMU recordings are handed
/// over one at a time; memory holds one IMU trace plus the (much smaller) GPS fixes.
public struct RecordingLoader: Sendable {
    public var cleaning = CleaningParameters()
    public var namePattern: String?
    public var mappings = ColumnMappings()

    public init() {}

    public struct Report: Sendable {
        public var recordings = 0
        public var quarantined: [InputError] = []
        /// Label names that map to no product mode, with the windows' sources.
        public var unknownModes: Set<String> = []
        public var skipped = 0

        public init(recordings: Int = 0) { self.recordings = recordings }
    }

    public func load(_ paths: [String], progress: ProgressReporter, each: (Recording) throws -> Void) throws -> Report {
        var report = Report()
        let inputs = try InputDiscovery.discover(paths)
        var catalog = try InputCatalog(namePattern: namePattern, mappings: mappings)
        catalog.survey(inputs)
        var detected: [(DiscoveredInput, InputFormat)] = []
        for input in inputs {
            switch catalog.examine(input).verdict {
            case .read(let format): detected.append((input, format))
            case .skip(let reason, let worthSaying):
                if worthSaying { progress.log("skipped \(input.path): \(reason)") }
                report.skipped += 1
            case .quarantine(let error, _): quarantine(error, report: &report, progress: progress)
            }
        }
        let devices = catalog.resolver
        var sharedLabels: [LabelInterval] = []
        let isLabelFile: (InputFormat.Kind) -> Bool = { $0 == .geoLifeLabels || $0 == .labelsCSV }
        for (input, format) in detected where isLabelFile(format.kind) {
            do {
                sharedLabels += try Ingestor(cleaning: cleaning, devices: devices).ingest(input, format: format, into: DiscardingSink())
                    .labels
            } catch let error as InputError {
                quarantine(error, report: &report, progress: progress)
            }
        }
        let gpsFiles = detected.filter { [.gpx, .plt, .positionCSV].contains($0.1.kind) }
        let imuFiles = detected.filter { [.imuCSV, .androidEventLog, .sensorLogger, .phyphox].contains($0.1.kind) }
        let total = gpsFiles.count + imuFiles.count
        var tracks: [Recording] = []
        for (index, (input, format)) in gpsFiles.enumerated() {
            progress.update(done: index, total: total, item: input.path)
            if let track = read(input, format, devices: devices, sharedLabels: sharedLabels, report: &report, progress: progress) {
                tracks.append(track)
            }
        }
        var covered: [String: [ClosedRange<Double>]] = [:]
        for (index, (input, format)) in imuFiles.enumerated() {
            progress.update(done: gpsFiles.count + index, total: total, item: input.path)
            guard var recording = read(input, format, devices: devices, sharedLabels: sharedLabels, report: &report, progress: progress)
            else { continue }
            if let span = recording.imuSpan {
                covered[recording.device, default: []].append(span)
                if recording.fixes.isEmpty {
                    recording.fixes = tracks.filter { $0.device == recording.device }.flatMap(\.fixes)
                        .filter { $0.time.map { span.contains($0.secondsSince1970) } ?? false }
                }
            }
            try each(recording)
        }
        for var track in tracks {
            let spans = covered[track.device] ?? []
            track.fixes.removeAll { fix in spans.contains { $0.contains(fix.time?.secondsSince1970 ?? .nan) } }
            try each(track)
        }
        progress.update(done: total, total: total, item: "")
        return report
    }

    private func read(
        _ input: DiscoveredInput, _ format: InputFormat, devices: DeviceResolver, sharedLabels: [LabelInterval],
        report: inout Report, progress: ProgressReporter
    ) -> Recording? {
        let sink = RecordingSink()
        do {
            var ingestor = Ingestor(cleaning: cleaning, devices: devices)
            // Recordings are read one at a time: the rows are parsed on a second core while the
            // samples are tallied and kept on this one.
            ingestor.imuReadsAhead = Jobs.widthHere > 1
            let result = try ingestor.ingest(input, format: format, into: sink)
            let recording = Self.recording(of: input, result: result, read: sink, sharedLabels: sharedLabels)
            report.unknownModes.formUnion(recording.labels.filter { $0.mode == nil }.map(\.rawName))
            report.recordings += 1
            return recording
        } catch let error as InputError {
            quarantine(error, report: &report, progress: progress)
            return nil
        } catch {
            quarantine(InputError(.unreadable, "\(error)", path: input.path), report: &report, progress: progress)
            return nil
        }
    }

    /// The recording an input gave: what `sink` collected while `Ingestor` read it into `result`,
    /// with its labels and the sample rates measured while reading (so the feature stage need
    /// not pass over the samples again). Ingest builds its recordings here too (`IngestRun`).
    static func recording(
        of input: DiscoveredInput, result: IngestResult, read sink: RecordingSink, sharedLabels: [LabelInterval] = []
    ) -> Recording {
        let labels = result.labels + sharedLabels.filter { $0.device == result.device }
        var recording = Recording(trace: input.path, device: result.device, streams: sink.streams, fixes: sink.fixes, labels: labels)
        recording.activities = result.activities.sorted { $0.start < $1.start }
        for stream in result.imuStreams {
            if let real = stream.realRateHz {
                recording.streamRates[stream.sensor] = StreamRate(realRateHz: real, repeatFactor: stream.repeatFactor)
            }
        }
        return recording
    }

    private func quarantine(_ error: InputError, report: inout Report, progress: ProgressReporter) {
        report.quarantined.append(error)
        progress.log("quarantined \(error)")
    }
}
