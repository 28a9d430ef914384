import MobilityCore

/// The trip stages' results as the store keeps them: identifiers assigned, every value plain,
/// one type per table (`locations`, `staypoints`, `dwells`, `trips`, `triplegs`). The stages
/// map their own types to these (PipelineRunner), so the store needs none of theirs.
public struct TripResultRows: Sendable {
    public struct Location: Sendable {
        public var id: Int, device: String?, number: Int
        public var latitudeDegrees: Double, longitudeDegrees: Double
        public var staypoints: Int, devices: Int, totalStaySeconds: Double
        /// Home or work for its device, how that was found and its score; nil for other places.
        public var purpose: String? = nil, purposeMethod: String? = nil, purposeScore: Double? = nil
        public init(
            id: Int, device: String?, number: Int, latitudeDegrees: Double, longitudeDegrees: Double, staypoints: Int,
            devices: Int, totalStaySeconds: Double
        ) {
            (self.id, self.device, self.number) = (id, device, number)
            (self.latitudeDegrees, self.longitudeDegrees) = (latitudeDegrees, longitudeDegrees)
            (self.staypoints, self.devices, self.totalStaySeconds) = (staypoints, devices, totalStaySeconds)
        }
    }

    public struct Staypoint: Sendable {
        public var id: Int, device: String, startSeconds: Double, endSeconds: Double, durationSeconds: Double
        public var latitudeDegrees: Double, longitudeDegrees: Double, fixes: Int, isOpen: Bool, isActivity: Bool
        public var locationID: Int?, geofenceID: String?
        /// Home, work or other (`PlacePurposes`).
        public var purpose: String? = nil
        /// `sliding` (trackintel's) or `gap` (a stay across a recording gap).
        public var kind = "sliding"
        public init(
            id: Int, device: String, startSeconds: Double, endSeconds: Double, durationSeconds: Double, latitudeDegrees: Double,
            longitudeDegrees: Double, fixes: Int, isOpen: Bool, isActivity: Bool, locationID: Int?, geofenceID: String?
        ) {
            (self.id, self.device, self.startSeconds, self.endSeconds, self.durationSeconds) = (
                id, device, startSeconds, endSeconds, durationSeconds
            )
            (self.latitudeDegrees, self.longitudeDegrees, self.fixes) = (latitudeDegrees, longitudeDegrees, fixes)
            (self.isOpen, self.isActivity, self.locationID, self.geofenceID) = (isOpen, isActivity, locationID, geofenceID)
        }
    }

    public struct Dwell: Sendable {
        public var id: Int, device: String, geofenceID: String, geofenceName: String, geofenceKind: String
        public var entrySeconds: Double, exitSeconds: Double, durationSeconds: Double, fixes: Int, closedBy: String
        public var longestGapSeconds: Double, latitudeDegrees: Double, longitudeDegrees: Double
        public init(
            id: Int, device: String, geofenceID: String, geofenceName: String, geofenceKind: String, entrySeconds: Double,
            exitSeconds: Double, durationSeconds: Double, fixes: Int, closedBy: String, longestGapSeconds: Double,
            latitudeDegrees: Double, longitudeDegrees: Double
        ) {
            (self.id, self.device, self.geofenceID, self.geofenceName, self.geofenceKind) = (
                id, device, geofenceID, geofenceName, geofenceKind
            )
            (self.entrySeconds, self.exitSeconds, self.durationSeconds, self.fixes) = (entrySeconds, exitSeconds, durationSeconds, fixes)
            (self.closedBy, self.longestGapSeconds) = (closedBy, longestGapSeconds)
            (self.latitudeDegrees, self.longitudeDegrees) = (latitudeDegrees, longitudeDegrees)
        }
    }

    public struct Trip: Sendable {
        public var id: Int, device: String, startSeconds: Double, endSeconds: Double, durationSeconds: Double, distanceMeters: Double
        public var mainMode: String?, legs: Int
        public var originStaypointID: Int?, destinationStaypointID: Int?, originLocationID: Int?, destinationLocationID: Int?
        public var originGeofenceID: String?, destinationGeofenceID: String?
        /// The ends' purposes (home, work, other) and the trip's (HBW, HBO, NHB).
        public var originPurpose: String? = nil, destinationPurpose: String? = nil, tripPurpose: String? = nil
        /// How each end was placed (`staypoint`, `dwell`, `gap_stay`, `first_fix`, `last_fix`) and
        /// where it is; nil for an end without a position.
        public var originKind: String? = nil, destinationKind: String? = nil
        public var origin: (latitude: Double, longitude: Double)? = nil, destination: (latitude: Double, longitude: Double)? = nil
        public init(
            id: Int, device: String, startSeconds: Double, endSeconds: Double, durationSeconds: Double, distanceMeters: Double,
            mainMode: String?, legs: Int, originStaypointID: Int?, destinationStaypointID: Int?, originLocationID: Int?,
            destinationLocationID: Int?, originGeofenceID: String?, destinationGeofenceID: String?
        ) {
            (self.id, self.device, self.startSeconds, self.endSeconds) = (id, device, startSeconds, endSeconds)
            (self.durationSeconds, self.distanceMeters, self.mainMode, self.legs) = (durationSeconds, distanceMeters, mainMode, legs)
            (self.originStaypointID, self.destinationStaypointID) = (originStaypointID, destinationStaypointID)
            (self.originLocationID, self.destinationLocationID) = (originLocationID, destinationLocationID)
            (self.originGeofenceID, self.destinationGeofenceID) = (originGeofenceID, destinationGeofenceID)
        }
    }

    public struct Tripleg: Sendable {
        public var id: Int, device: String, tripID: Int?, startSeconds: Double, endSeconds: Double, durationSeconds: Double
        public var distanceMeters: Double, mode: String?, modeSource: String?, fixes: Int
        public var previousStaypointID: Int?, nextStaypointID: Int?
        /// The leg's fixes as a GeoJSON LineString geometry, read (from its spool) only as its
        /// row is written.
        public var geometryGeoJSON: SpooledText
        /// What the IMU windows and the GPS leg model said on their own (`LegEvidence.imuAnswer`,
        /// `gpsLegModelAnswer`), nil where the source did not speak for the leg.
        public var imuAnswer: String?, gpsLegModelAnswer: String?
        public init(
            id: Int, device: String, tripID: Int?, startSeconds: Double, endSeconds: Double, durationSeconds: Double,
            distanceMeters: Double, mode: String?, modeSource: String?, fixes: Int, previousStaypointID: Int?,
            nextStaypointID: Int?, geometryGeoJSON: SpooledText, imuAnswer: String? = nil, gpsLegModelAnswer: String? = nil
        ) {
            (self.id, self.device, self.tripID, self.startSeconds, self.endSeconds) = (id, device, tripID, startSeconds, endSeconds)
            (self.durationSeconds, self.distanceMeters, self.mode, self.modeSource, self.fixes) = (
                durationSeconds, distanceMeters, mode, modeSource, fixes
            )
            (self.previousStaypointID, self.nextStaypointID, self.geometryGeoJSON) = (previousStaypointID, nextStaypointID, geometryGeoJSON)
            (self.imuAnswer, self.gpsLegModelAnswer) = (imuAnswer, gpsLegModelAnswer)
        }
    }

    /// Where a device's zone begins (`started_unix_s` NULL for the first, from the beginning
    /// of time), the IANA zone or fixed offset, where it came from, and for zones guessed from
    /// fixes how far the farthest fix lay from its zone's city.
    public struct DeviceZone: Sendable {
        public var device: String, startSeconds: Double?, zone: String, source: String
        public init(device: String, startSeconds: Double?, zone: String, source: String) {
            (self.device, self.startSeconds, self.zone, self.source) = (device, startSeconds, zone, source)
        }
    }

    /// A person's local day and its tracking coverage.
    public struct PersonDay: Sendable {
        public var person: String, date: String, zone: String, startSeconds: Double, endSeconds: Double
        public var trackedSeconds: Double, fixes: Int, imuSeconds: Double, valid: Bool
        public init(
            person: String, date: String, zone: String, startSeconds: Double, endSeconds: Double, trackedSeconds: Double, fixes: Int,
            imuSeconds: Double, valid: Bool
        ) {
            (self.person, self.date, self.zone, self.startSeconds, self.endSeconds) = (person, date, zone, startSeconds, endSeconds)
            (self.trackedSeconds, self.fixes, self.imuSeconds, self.valid) = (trackedSeconds, fixes, imuSeconds, valid)
        }
    }

    /// A time within a person-day that no staypoint or leg covers.
    public struct Untracked: Sendable {
        public var person: String, date: String, startSeconds: Double, endSeconds: Double
        public init(person: String, date: String, startSeconds: Double, endSeconds: Double) {
            (self.person, self.date, self.startSeconds, self.endSeconds) = (person, date, startSeconds, endSeconds)
        }
    }

    /// A travel diary's episode (`DiaryEpisode` of Trips), as the store keeps it.
    public struct Episode: Sendable {
        public var person: String, date: String, kind: String, startSeconds: Double, endSeconds: Double, device: String?
        /// The staypoint's, trip's or leg's id (its location comes from the staypoint, which a
        /// data-set pass of locations may renumber).
        public var staypointID: Int?, tripID: Int?, triplegID: Int?, purpose: String?, mode: String?
        public var latitudeDegrees: Double?, longitudeDegrees: Double?
        public init(
            person: String, date: String, kind: String, startSeconds: Double, endSeconds: Double, device: String?, staypointID: Int?,
            tripID: Int?, triplegID: Int?, purpose: String?, mode: String?, latitudeDegrees: Double?, longitudeDegrees: Double?
        ) {
            (self.person, self.date, self.kind, self.startSeconds, self.endSeconds, self.device) = (
                person, date, kind, startSeconds, endSeconds, device
            )
            (self.staypointID, self.tripID, self.triplegID, self.purpose, self.mode) = (staypointID, tripID, triplegID, purpose, mode)
            (self.latitudeDegrees, self.longitudeDegrees) = (latitudeDegrees, longitudeDegrees)
        }
    }

    public var episodes: [Episode] = []
    public var deviceZones: [DeviceZone] = []
    public var personDays: [PersonDay] = []
    public var untracked: [Untracked] = []
    public var locations: [Location] = []
    public var staypoints: [Staypoint] = []
    public var dwells: [Dwell] = []
    public var trips: [Trip] = []
    public var triplegs: [Tripleg] = []

    public init() {}
}
