import ArgumentParser
import Ingest
import MobilityCore
import PipelineRunner

/// The cleaning thresholds as options; defaults and docs come from `CleaningParameters`. Each
/// is optional, so `run` lays only the ones given over its configuration's `cleaning`.
struct CleaningOptions: ParsableArguments {
    @Option(
        name: .customLong("max-accuracy-m"),
        help:
            "Drop fixes whose horizontal accuracy is worse than this, metres (Compiègne app). Default: \(FixedText.number(CleaningParameters().maxAccuracyMeters))."
    )
    var maxAccuracyMeters: Double?

    @Option(
        name: .customLong("meters-per-hdop"),
        help:
            "Metres of horizontal error per unit of HDOP, when a fix has no accuracy. Default: \(FixedText.number(CleaningParameters().metersPerHDOP))."
    )
    var metersPerHDOP: Double?

    @Option(
        name: .customLong("max-speed-mps"),
        help:
            "Drop fixes implying a speed above this from the previous fix, m/s. Default: \(FixedText.number(CleaningParameters().maxSpeedMetersPerSecond))."
    )
    var maxSpeedMetersPerSecond: Double?

    @Option(
        name: .customLong("earliest-time"),
        help:
            "Drop fixes and IMU samples dated before this, ISO 8601 (implausible_time); set it earlier for historical data. Default: \(CleaningParameters().earliestTime)."
    )
    var earliestTime: String?

    @Option(
        name: .customLong("max-seconds-after-clock"),
        help:
            "Drop fixes and IMU samples dated later than the clock plus this, seconds (implausible_time). Default: \(FixedText.number(CleaningParameters().maxSecondsAfterClock))."
    )
    var maxSecondsAfterClock: Double?

    func validate() throws {
        for value in [maxAccuracyMeters, metersPerHDOP, maxSpeedMetersPerSecond].compactMap({ $0 }) where !(value > 0) {
            throw ValidationError("--max-accuracy-m, --meters-per-hdop and --max-speed-mps must be greater than 0 (got \(value))")
        }
        if let problem = parameters.problem { throw ValidationError(problem) }
    }

    /// The defaults with the options given laid over them.
    var parameters: CleaningParameters { applied(to: CleaningParameters()) }

    /// `base` with the options given laid over it.
    func applied(to base: CleaningParameters) -> CleaningParameters {
        var parameters = base
        if let maxAccuracyMeters { parameters.maxAccuracyMeters = maxAccuracyMeters }
        if let metersPerHDOP { parameters.metersPerHDOP = metersPerHDOP }
        if let maxSpeedMetersPerSecond { parameters.maxSpeedMetersPerSecond = maxSpeedMetersPerSecond }
        if let earliestTime { parameters.earliestTime = earliestTime }
        if let maxSecondsAfterClock { parameters.maxSecondsAfterClock = maxSecondsAfterClock }
        return parameters
    }
}

/// How inputs are identified and read.
struct InputOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A regular expression matched against file names, with named groups 'device', 'person' and/or 'mode'.",
            discussion:
                #"Example for TMD: 'sensorfile_(?<device>[^_]+)_(?<mode>[^_]+)_\d+\.csv'. A person group names who carried the device (privacy thresholds count persons). Default: none (manifest.csv, else the folder or the file name without its known extensions; never the GPX author)."#
        ))
    var namePattern: String?

    @Option(
        help: ArgumentHelp(
            "A column mapping, 'key=value' entries separated by ';', for the files it names (files=GLOB) or, without files=, for tables no reader recognises. Repeatable.",
            discussion:
                "Keys: files=GLOB (a glob of the file or folder name, or with a / of the path below the folder given; the mapping applies to those files only), delimiter (comma|semicolon|tab|space|pipe), header (lines, default 1), time=COLUMN[:s|ms|us|ns|iso8601], or dt=COLUMN:s|ms|us|ns (the time since the previous row), or rate=HZ; start=TIME or start=name[+HH:MM] (the date and time in the name the file was given; needed with dt= and rate=, the first row's time); utc_offset=±HH:MM (for times written without an offset); acc=X,Y,Z[:g], gyro=X,Y,Z[:deg/s], linear=…, gravity=…, label=COLUMN. 'files=GLOB; start=TIME' alone gives a recognised file's relative times their start (a phyphox export without meta/time.csv). A manifest.csv row takes the same as columns, start and utc_offset columns. The mapping is stored with each file read with it: later stages and re-runs without --columns read the file the same way. Default: none."
        ))
    var columns: [String] = []

    @Option(help: "A file holding a column mapping, one key=value per line (as --columns). Repeatable. Default: none.")
    var columnsFile: [String] = []

    func mappingSpecs() throws -> [ColumnMappingSpec] {
        var specs = try columns.map { try ColumnMappingSpec(text: $0) }
        for file in columnsFile {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw ValidationError("cannot read --columns-file \(file)")
            }
            specs.append(try ColumnMappingSpec(text: text))
        }
        return specs
    }

    /// The run's mappings, each for the files it names.
    func mappings() throws -> ColumnMappings {
        do { return try ColumnMappings(mappingSpecs()) } catch let error as PipelineError where error.code == .invalidColumnMapping {
            throw ValidationError(error.description)
        }
    }

    /// The listing `inputs` gives, with these options: how a command finds each file's identity.
    var listing: InputListing {
        get throws {
            var listing = InputListing(paths: [])
            listing.columns = try mappings()
            listing.namePattern = namePattern
            return listing
        }
    }

    func validate() throws {
        do { _ = try mappings() } catch let error as PipelineError where error.code == .invalidColumnMapping {
            throw ValidationError(error.description)
        }
        do { _ = try DeviceResolver(namePattern: namePattern) } catch let error as PipelineError where error.code == .invalidIdentity {
            throw ValidationError(error.description)
        }
    }
}
