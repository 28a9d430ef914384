/// What an input was detected as, with what its reader needs.
public enum InputFormat: Sendable {
    case gpx
    case plt
    case geoLifeLabels
    case labelsCSV
    case geofenceGeoJSON
    case geofenceCSV
    case checkIns
    case imuTable(ColumnMapping)
    /// A table of positions (`PositionTableReader`); times relative to `startSeconds` when set,
    /// from the user's mapping `spec` (stored with the file).
    case positionTable(startSeconds: Double?, spec: String?)
    case androidEventLog
    /// A Sensor Logger export: a folder or a `.zip` of per-sensor CSV files.
    case sensorLogger(zipped: Bool)
    /// A phyphox export: a folder or a `.zip` with `meta/time.csv` and per-sensor CSV files;
    /// `startSeconds`, given by the user's mapping `spec`, replaces `meta/time.csv`'s clock.
    case phyphox(zipped: Bool, startSeconds: Double? = nil, spec: String? = nil)
    case manifest

    /// The format's name as stored and printed.
    public enum Kind: String, Sendable, CaseIterable {
        case gpx, plt
        case geoLifeLabels = "geolife_labels"
        case labelsCSV = "labels_csv"
        case geofenceGeoJSON = "geofences_geojson"
        case geofenceCSV = "geofences_csv"
        case checkIns = "checkins_csv"
        case imuCSV = "imu_csv"
        case positionCSV = "position_csv"
        case androidEventLog = "android_event_log"
        case sensorLogger = "sensor_logger"
        case phyphox
        case manifest

        /// True for recordings of one device (traces and their label files); false for
        /// tables that name devices per row or none (geofences, check-ins, label CSVs, manifests).
        public var isDeviceRecording: Bool {
            switch self {
            case .gpx, .plt, .geoLifeLabels, .imuCSV, .positionCSV, .androidEventLog, .sensorLogger, .phyphox: true
            case .labelsCSV, .geofenceGeoJSON, .geofenceCSV, .checkIns, .manifest: false
            }
        }
    }

    /// The user's mapping this input is read with (`ColumnMappingSpec.storedText`), if any:
    /// stored with the file, so later stages and re-runs read it the same way.
    public var userMapping: String? {
        switch self {
        case .imuTable(let mapping): mapping.spec
        case .positionTable(_, let spec), .phyphox(_, _, let spec): spec
        default: nil
        }
    }

    public var kind: Kind {
        switch self {
        case .gpx: .gpx
        case .plt: .plt
        case .geoLifeLabels: .geoLifeLabels
        case .labelsCSV: .labelsCSV
        case .geofenceGeoJSON: .geofenceGeoJSON
        case .geofenceCSV: .geofenceCSV
        case .checkIns: .checkIns
        case .imuTable: .imuCSV
        case .positionTable: .positionCSV
        case .androidEventLog: .androidEventLog
        case .sensorLogger: .sensorLogger
        case .phyphox: .phyphox
        case .manifest: .manifest
        }
    }
}
