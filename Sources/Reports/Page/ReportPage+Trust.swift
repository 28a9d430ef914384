import Classify
import MobilityCore
import Store
import Trips

extension ReportPage {
    /// How far to trust the modal split: per mode, its travel time and the share of it each
    /// source decided; the time no source could name (unknown) and the time only known to be in
    /// a vehicle; and where the scores of the deciders are.
    func trust(_ split: PublishedSplit) throws -> String {
        let rows = facts.legSecondsByDecision
        guard !rows.isEmpty else { return "" }
        let deciders =
            Self.trustDeciders.filter { decider in rows.contains { $0.decidedBy == decider.key } }
            + Array(Set(rows.map(\.decidedBy)).subtracting(Self.trustDeciders.map(\.key))).sorted().map { ($0, $0) }
        // Only the modes whose time modal_split.csv publishes in "all"; the others are one left-out
        // row, and none when it publishes no mode's time (the remainder would be the whole's).
        let published = Set(split.magnitudeModes)
        let modes = Array(Set(rows.map(\.mode)).intersection(published)).sorted {
            (Mode(rawValue: $0) ?? .airplane, $0) < (Mode(rawValue: $1) ?? .airplane, $1)
        }
        let total = rows.reduce(0) { $0 + $1.seconds }
        // The left-out remainder is a total; of fewer than k persons in all, it is theirs alone.
        let leftOut =
            try withholdsTotals() || published.isEmpty ? 0 : rows.filter { !published.contains($0.mode) }.reduce(0) { $0 + $1.seconds }
        let changes = Dictionary(uniqueKeysWithValues: facts.legSourceChanges.map { ($0.mode, $0) })
        let heldOut = model?.gpsLegs?.heldOut
        let heldOutColumns =
            heldOut == nil ? [] : ["GPS leg model held out: right when it named the mode", "held out: the mode's time it found"]
        let table = HTML.table(
            ["mode", "minutes", "share of travel time"] + deciders.map(\.1)
                + ["IMU windows said otherwise", "GPS leg model said otherwise"] + heldOutColumns,
            modes.map { mode in
                let part = rows.filter { $0.mode == mode }
                let seconds = part.reduce(0) { $0 + $1.seconds }
                return [mode, HTML.number(seconds / 60), HTML.number(100 * seconds / max(total, 1), 1) + "%"]
                    + deciders.map { decider in
                        let decided = part.filter { $0.decidedBy == decider.key }.reduce(0) { $0 + $1.seconds }
                        return decided > 0 ? HTML.number(100 * decided / max(seconds, 1), 0) + "%" : "–"
                    } + [changes[mode]?.imu, changes[mode]?.gpsLegModel].map(Self.changed)
                    + (heldOut.map { Self.heldOutCells($0, mode: mode) } ?? [])
            }
                + (leftOut > 0
                    ? [
                        [Self.leftOutName, HTML.number(leftOut / 60), HTML.number(100 * leftOut / max(total, 1), 1) + "%"]
                            + Array(repeating: "", count: deciders.count + 2 + heldOutColumns.count)
                    ] : []),
            numeric: Set(1..<(5 + deciders.count)))
        func share(_ mode: String, _ meaning: String) -> String {
            guard published.contains(mode) || !rows.contains(where: { $0.mode == mode }) else { return "\(mode): within the left-out time" }
            let part = rows.filter { $0.mode == mode }
            return "\(mode): \(HTML.number(100 * part.reduce(0) { $0 + $1.seconds } / max(total, 1), 1))% of travel time "
                + "(\(part.reduce(0) { $0 + $1.legs }) legs) \(meaning)"
        }
        return "<section><h2>How far to trust the modal split</h2><p class=\"note\">Travel time of the legs (still left out) by mode, and "
            + "the share of each mode's time that each source decided; a mode modal_split.csv leaves out (fewer than k persons) is part of "
            + "one left-out row. \(share(unknownModeName, "has no mode")); \(share(Mode.vehicle.rawValue, "is known to be in a vehicle and not which"))"
            + familyOnly(rows, published: published) + ". The "
            + "two \"said otherwise\" columns say how often the leg decision changed what a source said on its own: of the legs of the mode where the IMU "
            + "windows covered half the leg or more (or the GPS leg model read the fixes), how many the source named otherwise, and their "
            + "minutes. Why each "
            + "leg is what it is: \(perDeviceTable("triplegs.csv")) (mode_source, mode_note, and each source's answer beside the final "
            + "one). How well the deciders score on people, phones and cities they never saw: "
            + (heldOut.map { Self.heldOutNote($0) } ?? "")
            + "the model's evaluation below, and docs/leg-modes.md.</p>" + table + "</section>"
    }

    /// ", N of the M legs in a vehicle (x %)": the legs of a published vehicle mode answered by
    /// the family only (`vehicle`); empty when vehicle is not published or no leg was in a vehicle.
    func familyOnly(_ rows: [(mode: String, decidedBy: String, seconds: Double, legs: Int)], published: Set<String>) -> String {
        let inVehicle = rows.filter { row in
            published.contains(row.mode) && Mode(rawValue: row.mode).map { LegMeasures.family($0) == .vehicle } ?? false
        }
        let all = inVehicle.reduce(0) { $0 + $1.legs },
            family = inVehicle.filter { $0.mode == Mode.vehicle.rawValue }.reduce(0) { $0 + $1.legs }
        guard published.contains(Mode.vehicle.rawValue), all > 0 else { return "" }
        return
            ", answered by the family only: \(family) of the \(all) legs in a vehicle (\(HTML.number(100 * Double(family) / Double(all), 0))%)"
    }

    /// The held-out precision and recall of `mode`, each data set with its share and minutes;
    /// dashes where the model's data sets neither held nor gave it.
    static func heldOutCells(_ heldOut: LegHeldOutScores, mode: String) -> [String] {
        guard let mode = Mode(rawValue: mode) else { return ["–", "–"] }
        let scores = heldOut.scores(of: mode)
        // "set share (of minutes)" per data set; the table escapes its cells.
        func cell(_ value: (LegHeldOutScores.ModeScore) -> Double?, _ minutes: (LegHeldOutScores.ModeScore) -> Double) -> String {
            let parts = scores.compactMap { set in
                value(set.score).map { "\(set.dataset) \(HTML.number($0, 2)) (\(HTML.number(minutes(set.score))) min)" }
            }
            return parts.isEmpty ? "–" : parts.joined(separator: "; ")
        }
        return [cell(\.precision, \.answeredMinutes), cell(\.recall, \.labelledMinutes)]
    }

    /// What the two held-out columns measure, and how often each data set's vehicle time was
    /// answered by the family only.
    static func heldOutNote(_ heldOut: LegHeldOutScores) -> String {
        let family = heldOut.datasets.compactMap { set in
            set.vehicleAnswered.map { "\(HTML.escape(set.dataset)) \(HTML.number(100 * $0, 0))%" }
        }
        return "the two \"held out\" columns give the GPS leg model's recipe on each data set it learnt or chose from, "
            + "\(HTML.escape(heldOut.heldOutBy)): of the time it named the mode, the share that was that mode (for vehicle, any "
            + "vehicle), and of the time labelled the mode, the share it named so, each with the minutes it counts; both time-weighted, legs as recorded"
            + (family.isEmpty
                ? "" : ". The share of labelled vehicle time it answered by the family only (vehicle): " + family.joined(separator: ", "))
            + "; "
    }

    /// "changed of legs (minutes)", or a dash where the source spoke for no leg of the mode.
    static func changed(_ source: LegSourceChanges.Source?) -> String {
        guard let source, source.legs > 0 else { return "–" }
        return "\(source.changed) of \(source.legs)" + (source.changed > 0 ? " (\(HTML.number(source.changedSeconds / 60)) min)" : "")
    }

    /// The deciders in the order the table shows them, with their column names.
    static let trustDeciders: [(key: String, String)] = [
        (Decider.model.rawValue, "IMU model"), (Decider.modelGravityFree.rawValue, "IMU model (gravity-free)"),
        (Decider.imuAndGPSLegModel.rawValue, "IMU + GPS leg model"), (Decider.gpsLegModel.rawValue, "GPS leg model"),
        (Decider.gpsRules.rawValue, "GPS speed rules"), (Decider.transit.rawValue, "transit feed"),
        (Decider.plausibility.rawValue, "speeds (flight, jump)"), (Decider.correction.rawValue, "corrections"),
        ("none", "nothing")
    ]
}
