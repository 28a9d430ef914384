import Features
import Foundation
import MobilityCore

/// The GPS model of a mode model: it classifies whole legs of movement (the fixes between two
/// stops) from `LegFeatures`, where the window classifier only sees ±30 s of fixes. It is what
/// decides GPS-only legs when a model has one (`ModeModel.gpsLegs`), and it knows the modes
/// its labelled legs had (bus and train included, which speed rules cannot tell from car).
///
/// Trained on labelled legs as recorded and thinned (`LegTrainer.thinningSeconds`), so one
/// model reads a 1 Hz logger and one that writes a fix a minute.
public struct GPSLegModel: Codable, Sendable {
    public var kind: ModeTrainer.Kind
    public var classes: [Mode]
    public var features = LegFeatures.names
    public var standardizer: Standardizer
    public var regression: SoftmaxRegression?
    public var network: MultilayerPerceptron?
    /// Training legs per mode (as recorded, before thinning).
    public var legsPerClass: [String: Int]
    /// The people (devices) whose legs trained it.
    public var devices: [String]
    /// The intervals the training legs were also thinned to, seconds.
    public var thinnedToSeconds: [Double]
    /// The paces the training legs were also replayed at (`LegTrainer.speedScales`); nil in
    /// models trained without.
    public var speedScales: [Double]?
    /// Its probabilities' temperature, the type threshold and the training range, chosen on
    /// legs its weights never saw; nil in models trained before them, which load uncalibrated
    /// with a warning (`ModeModel.warnings`).
    public var calibration: LegCalibration?
    /// The persons whose legs trained its weights, per data set (the folder given to `train`).
    public var personsPerDataset: [String: [String]]?
    /// Per mode, how its recipe scored on each data set it was trained and chosen without
    /// (`LegHeldOutScores`); nil when it learnt from one data set, or was trained before them.
    public var heldOut: LegHeldOutScores?

    /// True when the training legs had transit geofences (`LegFeatures.transitDistanceMeters`),
    /// so the model reads the distances of a leg's ends from them.
    public var usesTransitGeofences: Bool {
        LegFeatures.transitColumns.allSatisfy { standardizer.present.indices.contains($0) && standardizer.present[$0] }
    }

    /// Class probabilities, legs × classes.
    public func probabilities(_ table: LegTable) -> [Double] {
        let x = standardizer.transform(table.values)
        if let network { return network.probabilities(x, rows: table.count) }
        return regression!.probabilities(x, rows: table.count)
    }

    /// Class probabilities after calibration (`LegCalibration.temperature`), legs × classes;
    /// as `probabilities` for a model without one.
    public func calibratedProbabilities(_ table: LegTable) -> [Double] {
        let p = probabilities(table)
        guard let calibration else { return p }
        return LegCalibration.scaled(p, classes: classes.count, temperature: calibration.temperature)
    }

    /// What the model says of each leg of `table`: its calibrated probabilities, the features
    /// outside its training range and whether the leg keeps a steady running or slow cycling
    /// pace (`LegReading`).
    public func readings(_ table: LegTable) -> [LegReading] {
        let p = calibratedProbabilities(table), k = classes.count
        return (0..<table.count).map { row in
            let values = table.row(row)
            return LegReading(
                probabilities: Dictionary(uniqueKeysWithValues: classes.enumerated().map { ($1, p[row * k + $0]) }),
                outside: calibration?.outside(values) ?? [], pace: LegReading.Pace(values),
                typeThreshold: calibration?.typeThreshold ?? LegReading.uncalibratedThreshold)
        }
    }

    /// The most probable mode of every leg.
    public func predict(_ table: LegTable) -> [Mode] {
        let p = probabilities(table), k = classes.count
        return (0..<table.count).map { row in classes[(0..<k).max { p[row * k + $0] < p[row * k + $1] }!] }
    }

    /// Why this leg model cannot be fed the leg features this build computes, or nil.
    public var schemaProblem: String? {
        guard features == LegFeatures.names else {
            return
                "its GPS leg model was trained on other leg features (\(features.count) columns; this build computes \(LegFeatures.count)); retrain it with this version's `pipeline train`"
        }
        let width = network?.features ?? regression?.features, outputs = network?.classes ?? regression?.classes
        guard width == features.count, outputs == classes.count, standardizer.means.count == features.count else {
            return "its GPS leg model's weights do not match its kind (\(kind.rawValue)) or its own feature and class lists"
        }
        return nil
    }
}

/// Fits `GPSLegModel`s: balanced by mode, then by person within a mode (as the window
/// trainer's default), from legs as recorded and thinned.
public struct LegTrainer: Sendable {
    public var kind = ModeTrainer.Kind.mlp
    public var regression = SoftmaxRegression.Training()
    public var network: MultilayerPerceptron.Training = {
        var training = MultilayerPerceptron.Training()
        // Legs are few (thousands, not tens of thousands of windows) and have 11 features:
        // a smaller layer, smaller batches and more passes.
        training.hidden = 16
        training.batch = 64
        training.epochs = 150
        return training
    }()
    /// Each recording's fixes are also cut into legs after thinning to these intervals,
    /// seconds (`LabelledLegs.of(_:everySeconds:)`). Default 10 and 60.
    public static let thinningSeconds = [10.0, 60.0]
    /// The intervals `evaluate` also scores legs at, seconds: from a 5 s logger to one fix a
    /// minute. Only `thinningSeconds` copies train.
    public static let scoredThinningSeconds = [5.0, 10.0, 15.0, 30.0, 60.0]
    /// Each recording's legs are also cut from it replayed 0.75 and 1.35 times as fast: one
    /// person's pace is not everyone's. MobilityNet's walker (the shipped leg model's only
    /// person) walks at a median 1.12 m/s (over 30 s chords, the middle of 79 legs); adults'
    /// comfortable walking speed is 1.27–1.46 m/s by age and sex, and their fastest 1.75–2.53
    /// m/s (Bohannon 1997, Age and Ageing 26:15–19, table 1). Without the faster copies, a
    /// steady 1.5 m/s walk lies beyond every walk the model saw and reads as a slow bike.
    public static let speedScales = [0.75, 1.35]
    /// Leg features the model is not given (its standardiser marks them absent, so they weigh
    /// nothing): turning per km, straightness, length and duration describe the route and the
    /// receiver's jitter more than the mode. Learnt from one person's scripted routes they
    /// said "short, winding, jittery" for walk, and a steady walk along a straight street of
    /// another city read as bike. Default these four; empty keeps every feature.
    public var ignoredFeatures: Set<String> = ["leg_turn_deg_per_km", "leg_straightness", "leg_distance_km", "leg_duration_min"]

    public init(kind: ModeTrainer.Kind = .mlp) {
        self.kind = kind
    }

    /// The labelled legs of `table` a model can learn from and be scored on: a known mode of
    /// movement, and a label the fixes make possible (`implausible`).
    public static func labelled(_ table: LegTable) -> LegTable {
        table.subset(table.legs.indices.filter { table.legs[$0].mode.map { $0 != .still } == true && implausible(table, $0) == nil })
    }

    /// The labelled legs of `table` as recorded whose label no one could have travelled as
    /// labelled, with the reason: they neither train nor score (`labelled`), and `evaluate`
    /// lists them. A diary's or an app's leg boundaries and modes are the person's memory, not
    /// the fixes' (`gps/cbs-ssi`'s README): its 86-minute walk of 20 km at 13 m/s.
    public static func setAside(_ table: LegTable) -> [(leg: LegInfo, reason: String)] {
        table.legs.indices.compactMap { index in
            let leg = table.legs[index]
            guard leg.thinnedToSeconds == nil, leg.speedScale == nil, leg.mode.map({ $0 != .still }) == true,
                let reason = implausible(table, index)
            else { return nil }
            return (leg, reason)
        }
    }

    /// The fastest pace a labelled walk's 85th percentile of chord speeds (`LegFeatures`, over
    /// 30 s chords or longer) may have, m/s: 7 m/s (25 km/h) is faster than the marathon record's
    /// 5.8 m/s, so a sixth of a leg above it was not on foot. A bike's: 14 m/s (50 km/h), above a
    /// speed pedelec's 45 km/h limit (EU Regulation 168/2013, Annex I, category L1e-B).
    public static let plausibleP85Mps: [Mode: Double] = [.walk: 7, .bike: 14]

    /// Why leg `index` of `table` cannot be what its label says (its speeds, replayed copies at
    /// their recorded pace), or nil.
    static func implausible(_ table: LegTable, _ index: Int) -> String? {
        guard let mode = table.legs[index].mode, let limit = plausibleP85Mps[mode] else { return nil }
        let row = table.row(index), column = LegFeatures.names.firstIndex(of: "leg_speed_p85_mps")!
        let p85 = row[row.startIndex + column] / (table.legs[index].speedScale ?? 1)
        guard p85 > limit else { return nil }
        return String(
            format: "labelled %@ with a sixth of its time faster than %.0f m/s (85th percentile of its chord speeds %.1f m/s)",
            mode.rawValue, limit, p85)
    }

    /// The legs of `table` a model trains on: as recorded, and thinned to `thinningSeconds`.
    public static func trained(_ table: LegTable) -> LegTable {
        table.filter { $0.thinnedToSeconds.map(thinningSeconds.contains) ?? true }
    }

    /// Modes of movement a leg model needs among its labelled legs: it tells modes apart.
    public static let minimumModes = 2

    /// The modes of movement of `table`'s labelled legs, in `Mode` order.
    public static func modes(_ table: LegTable) -> [Mode] { Array(Set(labelled(table).legs.compactMap(\.mode))).sorted() }

    public func train(_ table: LegTable) throws -> GPSLegModel {
        let labelled = Self.trained(Self.labelled(table))
        let classes = Self.modes(labelled)
        guard classes.count >= Self.minimumModes else {
            throw PipelineError(
                .cannotTrain,
                "a GPS leg model needs labelled legs of at least two modes of movement; found "
                    + (classes.isEmpty ? "none" : classes.map(\.rawValue).joined(separator: ", ")))
        }
        let columns = LegTable.columns
        var standardizer = Standardizer(fitting: labelled.values, rows: labelled.count, columns: columns)
        for (column, name) in LegFeatures.names.enumerated() where ignoredFeatures.contains(name) { standardizer.present[column] = false }
        let y = labelled.legs.map { classes.firstIndex(of: $0.mode!)! }
        let weights = SampleWeights.balanced(classes: labelled.legs.map(\.mode!), within: labelled.legs.map(\.device))
        let x = standardizer.transform(labelled.values)
        var network = self.network
        // About 20,000 Adam steps whatever the number of legs: enough for a few hundred legs to
        // converge, not minutes for a large data set.
        let stepsPerEpoch = (labelled.count + max(1, network.batch) - 1) / max(1, network.batch)
        network.epochs = min(network.epochs, max(20, 20_000 / max(1, stepsPerEpoch)))
        var perClass: [String: Int] = [:]
        for leg in labelled.legs where leg.thinnedToSeconds == nil && leg.speedScale == nil {
            perClass[leg.mode!.rawValue, default: 0] += 1
        }
        var model = GPSLegModel(
            kind: kind, classes: classes, standardizer: standardizer, legsPerClass: perClass,
            devices: Array(Set(labelled.legs.map(\.device))).sorted(),
            thinnedToSeconds: Array(Set(labelled.legs.compactMap(\.thinnedToSeconds))).sorted())
        let scales = Set(labelled.legs.compactMap(\.speedScale)).sorted()
        model.speedScales = scales.isEmpty ? nil : scales
        switch kind {
        case .softmaxRegression:
            model.regression = SoftmaxRegression(
                x: x, y: y, sampleWeights: weights, features: columns, classes: classes.count, training: regression)
        case .mlp:
            model.network = MultilayerPerceptron(
                x: x, y: y, sampleWeights: weights, features: columns, classes: classes.count, training: network)
        }
        return model
    }
}
