import MobilityCore

/// Where a leg lies and what it is known to be.
public struct LegInfo: Hashable, Sendable {
    public var trace: String
    public var device: String
    public var start: Timestamp
    public var end: Timestamp
    /// The label's name as written in the source, when the leg is labelled.
    public var labelName: String?
    /// The product mode that name maps to, or nil when unlabelled or unknown.
    public var mode: Mode?
    /// How many fixes the features were computed from.
    public var fixes: Int
    /// The median time between those fixes, seconds.
    public var fixIntervalSeconds: Double
    /// The interval the recording's fixes were thinned to before this leg was cut
    /// (`LabelledLegs.of(_:everySeconds:)`), or nil for the fixes as recorded.
    public var thinnedToSeconds: Double?
    /// The longitude of the leg's first fix, degrees (for its local date, `GroupBy.day`).
    public var longitudeDegrees: Double?
    /// The factor this copy's speeds were multiplied by (its times divided by), a training
    /// augmentation (`LabelledLegs.of(_:everySeconds:speedScale:)`); nil for the leg as recorded.
    /// Such copies train and are never scored.
    public var speedScale: Double?
    /// The activity the phone recognised for most of the leg (`Recording.activity`) and its
    /// share: a motion source beside the GPS, when the recording carries one.
    public var activity: Mode?
    public var activityShare = 0.0

    public init(
        trace: String, device: String, start: Timestamp, end: Timestamp, labelName: String? = nil, mode: Mode? = nil,
        fixes: Int, fixIntervalSeconds: Double
    ) {
        self.trace = trace
        self.device = device
        self.start = start
        self.end = end
        self.labelName = labelName
        self.mode = mode
        self.fixes = fixes
        self.fixIntervalSeconds = fixIntervalSeconds
    }
}

/// Legs and their features: one row of `values` per leg, one column per name of
/// `LegFeatures.names`.
public struct LegTable: Sendable {
    public var legs: [LegInfo] = []
    public var values: [Double] = []
    public static var columns: Int { LegFeatures.count }

    public init() {}

    public var count: Int { legs.count }

    public func row(_ index: Int) -> ArraySlice<Double> {
        values[(index * Self.columns)..<((index + 1) * Self.columns)]
    }

    public mutating func append(_ leg: LegInfo, features: [Double]) {
        precondition(features.count == Self.columns)
        legs.append(leg)
        values += features
    }

    public mutating func append(_ other: LegTable) {
        legs += other.legs
        values += other.values
    }

    /// The legs `isIncluded` keeps, with their rows.
    public func filter(_ isIncluded: (LegInfo) -> Bool) -> LegTable {
        subset(legs.indices.filter { isIncluded(legs[$0]) })
    }

    /// The legs at `indices`, in that order, with their rows (as `FeatureTable.subset`).
    public func subset(_ indices: [Int]) -> LegTable {
        var result = LegTable()
        result.legs = indices.map { legs[$0] }
        result.values.reserveCapacity(indices.count * Self.columns)
        for index in indices { result.values += row(index) }
        return result
    }

    /// Adds the leg made of `fixes` (in time order, all with times) when they make one.
    /// Returns false when they are too few or too short (`LegFeatures.compute` is nil).
    @discardableResult
    public mutating func add(
        _ fixes: ArraySlice<PositionFix>, trace: String, device: String, labelName: String? = nil,
        mode: Mode? = nil, features: LegFeatures = LegFeatures()
    ) -> Bool {
        add(leg: fixes, trace: trace, device: device, labelName: labelName, mode: mode, features: features)
    }

    /// The same for a leg of a device's track, its fixes read one at a time (no copy of the leg).
    @discardableResult
    public mutating func add(
        _ fixes: Slice<TrackFixes>, trace: String, device: String, labelName: String? = nil,
        mode: Mode? = nil, features: LegFeatures = LegFeatures()
    ) -> Bool {
        add(leg: fixes, trace: trace, device: device, labelName: labelName, mode: mode, features: features)
    }

    private mutating func add<Fixes: BidirectionalCollection<PositionFix>>(
        leg fixes: Fixes, trace: String, device: String, labelName: String?, mode: Mode?, features: LegFeatures
    ) -> Bool {
        guard let values = features.features(fixes) else { return false }
        // Counted by distinct value, not an array of a value per fix: a leg may be a whole
        // track (1.6 M continuous fixes: 19 MB for the array and its sort, at the run's peak).
        var intervals = Quantile.Tally()
        for (fix, next) in zip(fixes, fixes.dropFirst()) { intervals.add(fix.time!.seconds(until: next.time!)) }
        append(
            LegInfo(
                trace: trace, device: device, start: fixes.first!.time!, end: fixes.last!.time!, labelName: labelName,
                mode: mode, fixes: fixes.count, fixIntervalSeconds: intervals.quantile(0.5) ?? 0),
            features: values)
        legs[count - 1].longitudeDegrees = fixes.first!.longitudeDegrees
        return true
    }
}

/// The labelled legs of recordings with fixes: for every label that names a mode of movement
/// (not `still`: a leg is movement), the fixes inside its interval. They are what the GPS leg
/// model trains on and is scored on.
public enum LabelledLegs {
    /// The legs of `recording`, its fixes first thinned to one every `everySeconds` when given
    /// (`thinned`), as a logger that records less often would have written them. With
    /// `speedScale`, the recording is first replayed that many times faster (every time after
    /// its first fix divided by it, label bounds too): the same path at another pace, as
    /// another person would walk or ride it.
    public static func of(
        _ recording: Recording, everySeconds: Double? = nil, speedScale: Double? = nil,
        features: LegFeatures = LegFeatures()
    ) -> LegTable {
        var table = LegTable()
        guard !recording.labels.isEmpty else { return table }
        var fixes = recording.fixes.timedInOrder
        guard let origin = fixes.first?.time?.secondsSince1970 else { return table }
        func replayed(_ seconds: Double) -> Double { speedScale.map { origin + (seconds - origin) / $0 } ?? seconds }
        if speedScale != nil {
            for index in fixes.indices { fixes[index].time = Timestamp(secondsSince1970: replayed(fixes[index].time!.secondsSince1970)) }
        }
        if let everySeconds { fixes = thinned(fixes, everySeconds: everySeconds) }
        guard fixes.count >= 3 else { return table }
        let times = fixes.map { $0.time!.secondsSince1970 }
        for label in recording.labels {
            guard let mode = label.mode, mode != .still else { continue }
            let lower = times.insertionIndex(of: replayed(label.start.secondsSince1970)),
                upper = times.insertionIndex(of: replayed(label.end.secondsSince1970).nextUp)
            guard upper - lower >= 3 else { continue }
            if table.add(
                fixes[lower..<upper], trace: recording.trace, device: label.device ?? recording.device,
                labelName: label.rawName, mode: mode, features: features)
            {
                table.legs[table.count - 1].thinnedToSeconds = everySeconds
                table.legs[table.count - 1].speedScale = speedScale
                if speedScale == nil, let (activity, share) = recording.activity(from: label.start, to: label.end) {
                    (table.legs[table.count - 1].activity, table.legs[table.count - 1].activityShare) = (activity, share)
                }
            }
        }
        return table
    }

    /// The first fix, then every fix at least `everySeconds` after the last one kept.
    public static func thinned(_ fixes: [PositionFix], everySeconds: Double) -> [PositionFix] {
        guard var last = fixes.first?.time else { return fixes }
        var kept = [fixes[0]]
        for fix in fixes.dropFirst() where last.seconds(until: fix.time!) >= everySeconds {
            kept.append(fix)
            last = fix.time!
        }
        return kept
    }
}
