/// Why a command could not do what it was asked: one type for every stage, so the CLI reports
/// every failure the same way (the message on standard error; `code` and `exit_status` in the
/// `--json` failure object) and a script can branch on a stable code instead of a message.
///
/// A file that cannot be read is not a failure of the command: it is quarantined with an
/// `InputError` (Ingest) and the run goes on. A `PipelineError` ends the command.
public struct PipelineError: Error, CustomStringConvertible, Hashable, Sendable {
    /// A stable name for what went wrong, written as-is into `--json` (`code`).
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The process's exit status when a command stops on this error, from sysexits.h: 75
        /// (`EX_TEMPFAIL`, "try again later") when another run holds the store, since nothing
        /// was done and the same command will work once that run ends; 64 (`EX_USAGE`) for a
        /// usage error and a transit feed that cannot be read (it is named on the command line or
        /// in the configuration, and checked before any stage); 1 otherwise.
        public var exitStatus: Int32 {
            switch self {
            case .storeLocked: 75
            case .usage, .invalidTransitFeed: 64
            default: 1
            }
        }
    }

    /// Where it went wrong, when a file is to blame: the path and, when known, the 1-based line
    /// and column.
    public struct Location: Hashable, Sendable {
        public var path: String
        public var line: Int?
        public var column: Int?
        public init(path: String, line: Int? = nil, column: Int? = nil) { (self.path, self.line, self.column) = (path, line, column) }
    }

    public var code: Code
    /// The whole message a person reads, as printed (location included where it names one).
    public var message: String
    public var location: Location?
    /// What the system or a library said, when this wraps another error.
    public var cause: String?

    public init(_ code: Code, _ message: String, at location: Location? = nil, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.location = location
        self.cause = cause.map { String(describing: $0) }
    }

    /// `path:line:column: reason`, the shape compilers use (editors jump to it), with the
    /// location also kept apart.
    public init(_ code: Code, path: String, line: Int? = nil, column: Int? = nil, reason: String, cause: (any Error)? = nil) {
        let location = Location(path: path, line: line, column: column)
        self.init(code, "\(location): \(reason)", at: location, cause: cause)
    }

    public var description: String { message }
}

extension PipelineError.Location: CustomStringConvertible {
    /// `path`, `path:line` or `path:line:column`.
    public var description: String {
        var text = path
        if let line { text += ":\(line)" }
        if let column { text += ":\(column)" }
        return text
    }
}

extension PipelineError.Code {
    /// The command line was wrong: an unknown option, an invalid value (exit 64). The errors
    /// below that a command line can cause are reported as this.
    public static let usage = Self(rawValue: "usage")

    // The store and its lock.
    /// Another process holds the store's lock (exit 75).
    public static let storeLocked = Self(rawValue: "store_locked")
    /// The lock file cannot be created or opened (a read-only folder, permissions).
    public static let storeUnavailable = Self(rawValue: "store_unavailable")
    /// A store both where earlier versions kept it and in `restricted/` (`StoreLocation`).
    public static let storeInTwoPlaces = Self(rawValue: "store_in_two_places")
    /// No store where the command needs one.
    public static let noStore = Self(rawValue: "no_store")
    /// The folder holds what another kind of run wrote (a partial run into a complete run's folder).
    public static let outputFolderInUse = Self(rawValue: "output_folder_in_use")
    /// `forget` was given names the store holds nothing of.
    public static let unknownNames = Self(rawValue: "unknown_names")

    // What the user gave.
    /// A configuration file, a setting or an option's value that cannot be used.
    public static let invalidConfiguration = Self(rawValue: "invalid_configuration")
    /// A `--map` column mapping that cannot be used.
    public static let invalidColumnMapping = Self(rawValue: "invalid_column_mapping")
    /// A `--name-pattern` or manifest that cannot name devices and persons.
    public static let invalidIdentity = Self(rawValue: "invalid_identity")
    /// A GTFS feed that cannot be read.
    public static let invalidTransitFeed = Self(rawValue: "invalid_transit_feed")
    /// A `--zones` layer that cannot be read or has no usable zone.
    public static let invalidZoneLayer = Self(rawValue: "invalid_zone_layer")
    /// A `--confusion` file that cannot be read as a confusion matrix.
    public static let invalidConfusionMatrix = Self(rawValue: "invalid_confusion_matrix")
    /// A `--population` or `--person-attributes` file that cannot be used.
    public static let invalidPopulation = Self(rawValue: "invalid_population")
    /// A `--corrections` file that cannot be used.
    public static let invalidCorrections = Self(rawValue: "invalid_corrections")
    /// Simulation parameters that describe no city.
    public static let invalidSimulation = Self(rawValue: "invalid_simulation")

    // Models.
    /// No mode model where IMU data needs one.
    public static let modelMissing = Self(rawValue: "model_missing")
    /// A model file that cannot be read or does not fit this version.
    public static let modelUnreadable = Self(rawValue: "model_unreadable")
    /// No labelled data where a command scores or trains on it.
    public static let noLabelledData = Self(rawValue: "no_labelled_data")
    /// Training data a model cannot be trained on (fewer than two modes, say).
    public static let cannotTrain = Self(rawValue: "cannot_train")

    // Tables read and written.
    /// A CSV, reduced table or published file that is not what it should be.
    public static let malformedTable = Self(rawValue: "malformed_table")
    /// A file an earlier stage writes is missing.
    public static let missingOutput = Self(rawValue: "missing_output")
    /// A table the export cannot write exactly, or a table name the store does not hold.
    public static let cannotExport = Self(rawValue: "cannot_export")
    /// A file or folder that cannot be written or moved into place.
    public static let cannotWrite = Self(rawValue: "cannot_write")
    /// An error the pipeline has no code for (a library's or the system's): its message says what.
    public static let unexpected = Self(rawValue: "unexpected")
    /// A job stopped because a step it waited for failed (that step's error is the one to read).
    public static let stepFailed = Self(rawValue: "step_failed")
}
