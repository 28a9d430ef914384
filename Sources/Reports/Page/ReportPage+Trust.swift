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
        let table = HTML.table(
            ["mode", "minutes", "share of travel time"] + deciders.map(\.1)
                + ["IMU windows said otherwise", "GPS leg model said otherwise"],
            modes.map { mode in
                let part = rows.filter { $0.mode == mode }
                let seconds = part.reduce(0) { $0 + $1.seconds }
                return [mode, HTML.number(seconds / 60), HTML.number(100 * seconds / max(total, 1), 1) + "%"]
                    + deciders.map { decider in
                        let decided = part.filter { $0.decidedBy == decider.key }.reduce(0) { $0 + $1.seconds }
                        return decided > 0 ? HTML.number(100 * decided / max(seconds, 1), 0) + "%" : "–"
                    } + [changes[mode]?.imu, changes[mode]?.gpsLegModel].map(Self.changed)
            }
                + (leftOut > 0
                    ? [
                        [Self.leftOutName, HTML.number(leftOut / 60), HTML.number(100 * leftOut / max(total, 1), 1) + "%"]
                            + Array(repeating: "", count: deciders.count + 2)
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
            + "one left-out row. \(share(unknownModeName, "has no mode")); \(share(Mode.vehicle.rawValue, "is known to be in a vehicle and not which")). The last "
            + "two columns say how often the leg decision changed what a source said on its own: of the legs of the mode where the IMU "
            + "windows covered half the leg or more (or the GPS leg model read the fixes), how many the source named otherwise, and their "
            + "minutes. Why each "
            + "leg is what it is: \(perDeviceTable("triplegs.csv")) (mode_source, mode_note, and each source's answer beside the final "
            + "one). How well the deciders score on people, phones and cities they never saw: the model's evaluation below, and "
            + "docs/leg-modes.md.</p>" + table + "</section>"
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
