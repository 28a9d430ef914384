import MobilityCore

/// How a GPS leg model's recipe scores per mode on data sets it was not trained or chosen on,
/// kept in the model file (`GPSLegModel.heldOut`) so that a run's report can say, beside each
/// mode it gives, how often that answer was right on other people and cities.
///
/// Measured when `train` is given legs of two data sets or more: each data set in turn is held
/// out and scored by a model trained, chosen and calibrated without it (a data set of one
/// person is held out by day, `LegCrossValidation.evaluate`), its legs as recorded, each leg
/// weighted by its labelled seconds. `vehicle` (the family only) is never right for a type.
public struct LegHeldOutScores: Codable, Hashable, Sendable {
    /// How the legs were held out, in words.
    public var heldOutBy: String
    public var datasets: [Dataset]

    public struct Dataset: Codable, Hashable, Sendable {
        /// The data set's folder name, with the folders above it that tell it from another
        /// of the same name (`DataIdentity.names(ofDatasets:)`).
        public var dataset: String
        public var legs: Int
        /// Persons, or days for one person's data: the groups its legs were held out by.
        public var groups: Int
        /// The share of its labelled vehicle time answered `vehicle` (the family only), 0–1;
        /// nil without vehicle legs.
        @NullEncodable public var vehicleAnswered: Double?
        public var modes: [ModeScore]

        /// "name: N legs, G groups; walk recall 0.91 precision 0.88, …; `vehicle` 0.08 of vehicle time".
        public var line: String {
            func value(_ x: Double?) -> String { x.map { String(format: "%.2f", $0) } ?? "–" }
            return "\(dataset): \(legs) legs, \(groups) groups; "
                + modes.map { "\($0.mode.rawValue) recall \(value($0.recall)) precision \(value($0.precision))" }
                .joined(separator: ", ") + (vehicleAnswered.map { String(format: "; `vehicle` %.2f of vehicle time", $0) } ?? "")
        }
    }

    /// One mode's time-weighted scores on a held-out data set.
    public struct ModeScore: Codable, Hashable, Sendable {
        public var mode: Mode
        /// Minutes of the data set's legs labelled this mode.
        public var labelledMinutes: Double
        /// Minutes of its legs the model answered this mode.
        public var answeredMinutes: Double
        /// Of the time labelled this mode, the share answered it (recall); nil when none is labelled it.
        @NullEncodable public var recall: Double?
        /// Of the time answered this mode, the share labelled it (precision); for `vehicle`, the
        /// share labelled a car, bus or train (the family right). Nil when nothing is answered it.
        @NullEncodable public var precision: Double?
    }

    /// The scores of held-out leg outcomes (as recorded; `smoothed` is the decided mode, each
    /// with its seconds and data set), per data set in name order.
    public init(heldOutBy: String, _ outcomes: [WindowOutcome]) {
        self.heldOutBy = heldOutBy
        let sets = Dictionary(grouping: outcomes) { $0.dataset ?? "legs" }
        let names = DataIdentity.names(ofDatasets: sets.keys)
        datasets = sets.keys.sorted { names[$0]! < names[$1]! }.map { name in
            let legs = sets[name]!
            let modes = Set(legs.map(\.truth) + legs.map(\.smoothed)).sorted()
            return Dataset(
                dataset: names[name]!, legs: legs.count,
                groups: Set(legs.map { $0.group ?? $0.person ?? $0.device }).count,
                vehicleAnswered: LegMeasures.share(legs.filter { LegMeasures.family($0.truth) == .vehicle }) { $0.smoothed == .vehicle },
                modes: modes.map { mode in
                    let labelled = legs.filter { $0.truth == mode }, answered = legs.filter { $0.smoothed == mode }
                    let right: (WindowOutcome) -> Bool =
                        mode == .vehicle ? { LegMeasures.family($0.truth) == .vehicle } : { $0.truth == mode }
                    return ModeScore(
                        mode: mode, labelledMinutes: Self.minutes(labelled), answeredMinutes: Self.minutes(answered),
                        recall: LegMeasures.share(labelled) { $0.smoothed == mode }, precision: LegMeasures.share(answered, right))
                })
        }
    }

    static func minutes(_ outcomes: [WindowOutcome]) -> Double { outcomes.reduce(0) { $0 + ($1.seconds ?? 0) } / 60 }

    /// Each data set's scores of `mode`, in data set order (only those where it was labelled or answered).
    public func scores(of mode: Mode) -> [(dataset: String, score: ModeScore)] {
        datasets.compactMap { set in set.modes.first { $0.mode == mode }.map { (set.dataset, $0) } }
    }
}
