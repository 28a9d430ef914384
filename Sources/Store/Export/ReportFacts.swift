import Foundation

/// Everything the report pages show, read from the store in one place and handed to Reports
/// as values (`ReportPage(facts:…)`), so the pages read no store and the same facts give the
/// same bytes. Each query runs once for both pages.
///
/// The heat maps and the OD table are read apart (`Published`), once publishing has written
/// them: `pipeline publish` computes them while the other sections are drawn.
public struct ReportFacts {
    public typealias Overview = PipelineStore.Overview
    public typealias DeviceIdentity = PipelineStore.DeviceIdentity
    public typealias InputGroup = PipelineStore.InputGroup
    public typealias DeviceSpan = PipelineStore.DeviceSpan
    public typealias ModalEntry = PipelineStore.ModalEntry
    public typealias TripsByMode = PipelineStore.TripsByMode
    public typealias DwellPlace = PipelineStore.DwellPlace
    public typealias CheckInRide = PipelineStore.CheckInRide
    public typealias RecordingRide = PipelineStore.RecordingRide
    public typealias DecisionCount = PipelineStore.DecisionCount
    public typealias GeofencePair = PipelineStore.GeofencePair
    public typealias HeatMapSummary = PipelineStore.HeatMapSummary

    /// The k every published aggregate row meets: the last trip stage's or publish's, else the default given.
    public var minimumPersons: Int
    public var overview: Overview
    public var deviceIdentities: [DeviceIdentity]
    public var devicePersons: [String: String]
    public var quarantined: [QuarantineEntry]
    public var fileOutcomes: [FileOutcome]
    public var inputGroups: [InputGroup]
    public var droppedRecords: [(reason: String, records: Int)]
    public var deviceSpans: [DeviceSpan]
    /// The geofences the trips' ends were matched against (the OD table has rows only with some).
    public var geofences: Int { geofenceNames.count }
    /// Each geofence's name by id (a later file's fence replacing an earlier one's).
    public var geofenceNames: [String: String]
    public var tripsByMode: [TripsByMode]
    /// The 15 geofences with the most time in them that k persons dwelt in, and how many fewer dwelt in.
    public var topDwellPlaces: (places: [DwellPlace], suppressed: Int)
    public var checkInRides: [CheckInRide]
    public var recordingRides: [RecordingRide]
    public var windowDecisions: [DecisionCount]
    public var legDecisions: [DecisionCount]
    public var legSecondsByDecision: [(mode: String, decidedBy: String, seconds: Double, legs: Int)]
    public var legSourceChanges: [LegSourceChanges]
    public var labelledLegSeconds: [(legMode: String, labelledMode: String, seconds: Double)]
    /// The transit feeds the trip stage matched legs against, as it described them.
    public var transitUse: String?
    /// How many legs those feeds reached and named: for the operator's page only.
    public var transitLegs: String?
    /// Each trip's device and end kinds, and the stays across gaps with their devices (`tripEndKinds`).
    public var tripEndKinds: (devices: [String], origins: [String?], destinations: [String?], gapStays: Int, gapStayDevices: [String]) = (
        [], [], [], 0, []
    )

    /// What the pages show once publishing is done.
    public struct Published {
        /// k as it stands once publishing is done (a distributed run's publish records it).
        public var minimumPersons: Int
        /// The 20 busiest pairs of geofences k persons made, and how many pairs fewer made.
        public var busiestPairs: (pairs: [GeofencePair], suppressed: Int)
        /// What the OD table and the OD grid published, as the run said it.
        public var odMatrixLine: String?, odGridLine: String?
        /// What the zone OD published; nil or empty without a zone layer.
        public var odZonesLine: String?
        /// What the mode shares published and left out (`mode_shares.csv`), person-days excluded included.
        public var modeSharesLine: String?
        /// What `co2e.csv` published, and the factors it used (JSON of `EmissionFactors`).
        public var co2eLine: String?, co2eFactors: String?
        public var heatMaps: [HeatMapSummary]
        /// Whether the last publish was given a population (`--population`), whether or not
        /// anyone could be weighted to it.
        public var populationGiven = false
        /// The publish's sentence when no person-day was valid (`PipelineStore.noValidDayKey`), else nil.
        public var noValidDay: String?
        /// What the report prints of the trip tables, as the trip stage or `publish` kept it
        /// (`TripFigures`' JSON; a distributed run's publish writes it from the reductions);
        /// nil before a trip stage.
        public var tripFigures: String?
        /// What `punctuality.csv` published and left out, as the trip stage said it; nil or empty without a feed.
        public var punctualityLine: String?
    }
}

extension PipelineStore {
    /// The report's facts; `defaultMinimumPersons` is k when no stage has recorded one.
    public func reportFacts(defaultMinimumPersons: Int) throws -> ReportFacts {
        let k = try minimumPersons() ?? defaultMinimumPersons
        return ReportFacts(
            minimumPersons: k, overview: try overview(), deviceIdentities: try deviceIdentities(), devicePersons: try devicePersons(),
            quarantined: try quarantinedFiles(), fileOutcomes: try fileOutcomes(), inputGroups: try inputGroups(),
            droppedRecords: try droppedRecordTotals(), deviceSpans: try deviceSpans(),
            geofenceNames: Dictionary(try geofenceRows().map { ($0.id, $0.name) }, uniquingKeysWith: { $1 }),
            tripsByMode: try tripsByMode(), topDwellPlaces: try topDwellPlaces(limit: 15, minimumPersons: k),
            checkInRides: try checkInRides(), recordingRides: try recordingRides(), windowDecisions: try windowDecisions(),
            legDecisions: try legDecisions(), legSecondsByDecision: try legSecondsByDecision(), legSourceChanges: try legSourceChanges(),
            labelledLegSeconds: try labelledLegSeconds(), transitUse: try transitUse(), transitLegs: try transitLegs(),
            tripEndKinds: try tripEndKinds())
    }

    /// The report's facts that publishing writes: read once it has.
    public func publishedReportFacts(defaultMinimumPersons: Int) throws -> ReportFacts.Published {
        let k = try minimumPersons() ?? defaultMinimumPersons
        return ReportFacts.Published(
            minimumPersons: k, busiestPairs: try busiestGeofencePairs(limit: 20, minimumPersons: k),
            odMatrixLine: try derivedState(Self.odMatrixKey),
            odGridLine: try derivedState(Self.odGridKey), odZonesLine: try derivedState(Self.odZonesKey),
            modeSharesLine: try derivedState(Self.modeSharesKey), co2eLine: try derivedState(Self.co2eKey),
            co2eFactors: try derivedState(Self.co2eFactorsKey), heatMaps: try heatMapSummaries(),
            populationGiven: !(try derivedState(Self.personWeightsKey) ?? "").isEmpty,
            noValidDay: try derivedState(Self.noValidDayKey).flatMap { $0.isEmpty ? nil : $0 },
            tripFigures: try derivedState(Self.tripFiguresKey), punctualityLine: try derivedState(Self.punctualityKey))
    }
}
