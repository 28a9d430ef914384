import PipelineRunner
import ArgumentParser
import Ingest

/// The cleaning thresholds as options; defaults and docs come from `CleaningParameters`.
struct CleaningOptions: ParsableArguments {
    @Option(name: .customLong("max-accuracy-m"), help: "Drop fixes whose horizontal accuracy is worse than this, metres (Compiègne app).")
    var maxAccuracyMeters = CleaningParameters().maxAccuracyMeters

    @Option(name: .customLong("meters-per-hdop"), help: "Metres of horizontal error per unit of HDOP, when a fix has no accuracy.")
    var metersPerHDOP = CleaningParameters().metersPerHDOP

    @Option(name: .customLong("max-speed-mps"), help: "Drop fixes implying a speed above this from the previous fix, m/s.")
    var maxSpeedMetersPerSecond = CleaningParameters().maxSpeedMetersPerSecond

    @Option(name: .customLong("earliest-time"), help: "Drop fixes and IMU samples dated before this, ISO 8601 (implausible_time); set it earlier for historical data.")
    var earliestTime = CleaningParameters().earliestTime

    @Option(name: .customLong("max-seconds-after-clock"), help: "Drop fixes and IMU samples dated later than the clock plus this, seconds (implausible_time).")
    var maxSecondsAfterClock = CleaningParameters().maxSecondsAfterClock

    func validate() throws {
        guard maxAccuracyMeters > 0, metersPerHDOP > 0, maxSpeedMetersPerSecond > 0 else {
            throw ValidationError("--max-accuracy-m, --meters-per-hdop and --max-speed-mps must be greater than 0")
        }
        if let problem = parameters.problem { throw ValidationError(problem) }
    }

    var parameters: CleaningParameters {
        var parameters = CleaningParameters()
        parameters.maxAccuracyMeters = maxAccuracyMeters
        parameters.metersPerHDOP = metersPerHDOP
        parameters.maxSpeedMetersPerSecond = maxSpeedMetersPerSecond
        parameters.earliestTime = earliestTime
        parameters.maxSecondsAfterClock = maxSecondsAfterClock
        return parameters
    }
}

/// How inputs are identified and read.
struct InputOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "A regular expression matched against file names, with named groups 'device', 'person' and/or 'mode'.",
        discussion: #"Example for TMD: 'sensorfile_(?<device>[^_]+)_(?<mode>[^_]+)_\d+\.csv'. A person group names who carried the device (privacy thresholds count persons). Default: none (manifest.csv, else the folder or the file name without its known extensions; never the GPX author)."#))
    var namePattern: String?

    @Option(help: ArgumentHelp(
        "An explicit column mapping for IMU CSV files no dialect matches, 'key=value' entries separated by ';'.",
        discussion: "Keys: delimiter (comma|semicolon|tab|space|pipe), header (lines, default 1), time=COLUMN[:s|ms|us|ns|iso8601], or dt=COLUMN:s|ms|us|ns (the time since the previous row), or rate=HZ; start=TIME or start=name[+HH:MM] (the date and time in the file name; needed with dt= and rate=, the first row's time); acc=X,Y,Z[:g], gyro=X,Y,Z[:deg/s], linear=…, gravity=…, label=COLUMN. The mapping is stored with each file read with it: later stages and re-runs without --columns read the file the same way. Default: none."))
    var columns: String?

    @Option(help: "A file holding the column mapping, one key=value per line. Default: none.")
    var columnsFile: String?

    func mappingSpec() throws -> ColumnMappingSpec? {
        if let columns { return try ColumnMappingSpec(text: columns) }
        guard let columnsFile else { return nil }
        guard let text = try? String(contentsOfFile: columnsFile, encoding: .utf8) else {
            throw ValidationError("cannot read --columns-file \(columnsFile)")
        }
        return try ColumnMappingSpec(text: text)
    }

    /// The listing `inputs` gives, with these options: how a command finds each file's identity.
    var listing: InputListing {
        get throws {
            var listing = InputListing(paths: [])
            listing.columns = try mappingSpec()
            listing.namePattern = namePattern
            return listing
        }
    }

    func validate() throws {
        guard columns == nil || columnsFile == nil else { throw ValidationError("give --columns or --columns-file, not both") }
        do { _ = try mappingSpec() } catch let error as ColumnMappingSpec.SpecError {
            throw ValidationError(error.description)
        }
        do { _ = try DeviceResolver(namePattern: namePattern) } catch let error as DeviceResolver.ResolverError {
            throw ValidationError(error.description)
        }
    }
}
