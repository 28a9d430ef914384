import Foundation
import MobilityCore

/// What every command makes of a found input, by one set of rules: `ingest` and `run`, the
/// commands that read recordings straight from files (`features`, `train`, `evaluate`,
/// `classify`), `inputs`, and through it the Spark planner. It says whether the input is read
/// (and as what format), skipped (and why) or quarantined (and why), and whose it is
/// (`DeviceResolver`), loading each `manifest.csv` as it is met so later inputs see its entries
/// (discovery lists manifests first).
public struct InputCatalog {
    public private(set) var resolver: DeviceResolver
    /// The run's column mappings (`--columns`); manifests' rows add theirs as they are loaded.
    public var mappings: ColumnMappings

    public init(namePattern: String? = nil, mappings: ColumnMappings = ColumnMappings()) throws {
        resolver = try DeviceResolver(namePattern: namePattern)
        self.mappings = mappings
    }

    /// Looks at every input's export metadata and every track's time first, so a folder holding
    /// two phones' exports (`PhoneSurvey`), or two tracks recorded at once far apart
    /// (`TrackSurvey`), gives two devices. Call before the first `examine`.
    public mutating func survey(_ inputs: [DiscoveredInput]) {
        resolver.phones = PhoneSurvey(inputs)
        resolver.tracks = TrackSurvey(inputs)
    }

    public enum Verdict: Sendable {
        case read(InputFormat)
        /// Not read: why, and whether that is worth a line in the log (a README beside the
        /// data is listed, not warned about).
        case skip(reason: String, worthSaying: Bool)
        /// Not readable: why, and the format when it was recognised (a manifest that fails to load).
        case quarantine(InputError, format: InputFormat?)
    }

    /// The reason given for a file whose extension is not a trace format's.
    public static let notATraceExtension =
        "not a trace format (its extension is not one of "
        + FormatDetector.dataExtensions.sorted().joined(separator: ", ") + ")"

    /// What becomes of an entry discovery could not offer as a file to read, without opening it.
    public static func verdict(_ problem: DiscoveryProblem, path: String) -> Verdict {
        switch problem {
        case .notRegular(let kind): .skip(reason: kind + ", not a regular file", worthSaying: true)
        case .pipelineOutput(let reason): .skip(reason: reason + ", not an input", worthSaying: true)
        case .unreadable(let reason): .quarantine(InputError(.unreadable, reason, path: path), format: nil)
        }
    }

    /// The mapping `input` is read with (`ColumnMappings.choice`); `stored` is the one it was
    /// last read with.
    public func mapping(for input: DiscoveredInput, stored: String? = nil) -> ColumnMappings.Choice? {
        mappings.choice(for: input, manifest: resolver.manifest.isEmpty ? nil : resolver.manifest.entry(for: input.path), stored: stored)
    }

    /// Detects `input`'s format (read with its mapping; `stored` is the mapping it was last
    /// read with), loads it when it is a manifest, and says what becomes of it, with its identity.
    public mutating func examine(_ input: DiscoveredInput, stored: String? = nil) -> (verdict: Verdict, identity: RecordingIdentity) {
        let verdict: Verdict
        if let problem = input.problem {
            verdict = Self.verdict(problem, path: input.path)
        } else {
            var format: InputFormat?
            do {
                format = try FormatDetector().detect(path: input.path, mapping: mapping(for: input, stored: stored))
                if let format {
                    if case .manifest = format {
                        var dropped = DropCounts()
                        try resolver.manifest.load(path: input.path, dropped: &dropped)
                    }
                    verdict = .read(format)
                } else if let reason = FormatDetector.whyNotATrace(path: input.path) {
                    verdict = .skip(reason: reason, worthSaying: true) // a data extension that is not a trace, and what to do if it is one
                } else {
                    verdict = .skip(reason: Self.notATraceExtension, worthSaying: false)
                }
            } catch let error as InputError {
                verdict = .quarantine(error, format: format)
            } catch {
                verdict = .quarantine(InputError(.unreadable, "\(error)", path: input.path), format: format)
            }
        }
        return (verdict, resolver.identify(path: input.path, root: input.root))
    }
}
