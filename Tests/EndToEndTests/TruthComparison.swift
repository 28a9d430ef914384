import Foundation
import Reports

/// Reads a pipeline or truth CSV (no quoted commas) into rows keyed by column.
func readCSV(_ path: String) throws -> [[String: String]] {
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    guard let header = lines.first?.split(separator: ",", omittingEmptySubsequences: false).map(String.init) else { return [] }
    return lines.dropFirst().map { line in
        Dictionary(uniqueKeysWithValues: zip(header, line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)))
    }
}

/// How well a run recovered a simulation's truth: the share of true stays, dwells and trips
/// found (recall), the share of found ones that are true (precision), and the share of
/// travel time whose leg mode is right.
struct TruthComparison: CustomStringConvertible {
    struct Rate: CustomStringConvertible {
        var matched = 0, total = 0
        var value: Double { total == 0 ? 1 : Double(matched) / Double(total) }
        var description: String { String(format: "%.3f (%d/%d)", value, matched, total) }
    }

    var stayRecall = Rate(), stayPrecision = Rate()
    var dwellRecall = Rate(), dwellPrecision = Rate()
    var tripRecall = Rate(), tripPrecision = Rate()
    var modeSeconds = 0.0, correctModeSeconds = 0.0
    var modeAccuracy: Double { modeSeconds == 0 ? 0 : correctModeSeconds / modeSeconds }
    /// Per true mode: the seconds of its legs under found legs, and under found legs of its mode.
    var secondsByTrueMode: [String: (all: Double, right: Double)] = [:]
    func accuracy(of mode: String) -> Double { secondsByTrueMode[mode].map { $0.all == 0 ? 0 : $0.right / $0.all } ?? 0 }

    var description: String {
        "stays recall \(stayRecall), precision \(stayPrecision); dwells recall \(dwellRecall), precision \(dwellPrecision); "
            + "trips recall \(tripRecall), precision \(tripPrecision); leg mode accuracy by time "
            + String(format: "%.3f", modeAccuracy)
    }

    static func overlap(_ a: (Double, Double), _ b: (Double, Double)) -> Double { max(0, min(a.1, b.1) - max(a.0, b.0)) }

    static func span(_ row: [String: String], _ start: String, _ end: String) -> (Double, Double) {
        (Double(row[start] ?? "") ?? .nan, Double(row[end] ?? "") ?? .nan)
    }

    /// Matches one set against another: same device, time overlap of at least half the
    /// shorter interval, and `agree` for anything else that must match.
    static func rate(
        _ from: [[String: String]], _ fromSpan: (String, String), _ to: [[String: String]], _ toSpan: (String, String),
        agree: ([String: String], [String: String]) -> Bool
    ) -> Rate {
        var rate = Rate(total: from.count)
        for a in from {
            let sa = span(a, fromSpan.0, fromSpan.1)
            if to.contains(where: { b in
                let sb = span(b, toSpan.0, toSpan.1)
                return a["device"] == b["device"] && overlap(sa, sb) >= 0.5 * min(sa.1 - sa.0, sb.1 - sb.0) && agree(a, b)
            }) {
                rate.matched += 1
            }
        }
        return rate
    }

    init(truth: String, output: String) throws {
        func t(_ name: String) throws -> [[String: String]] { try readCSV((truth as NSString).appendingPathComponent(name)) }
        func o(_ name: String) throws -> [[String: String]] { try readCSV(OutputLayout.path(name, in: output)) }
        // A stay is found when a staypoint overlaps it and lies within 100 m of the place.
        let stays = try t("stays.csv"), staypoints = try o("staypoints.csv")
        let near = { (a: [String: String], b: [String: String]) -> Bool in
            let (la, lo, lb, mb) = (
                Double(a["lat"] ?? "") ?? 0, Double(a["lon"] ?? "") ?? 0, Double(b["lat"] ?? "") ?? 0, Double(b["lon"] ?? "") ?? 0
            )
            let dy = (la - lb) * 111_195, dx = (lo - mb) * 111_195 * cos(la * .pi / 180)
            return (dx * dx + dy * dy).squareRoot() <= 100
        }
        stayRecall = Self.rate(stays, ("started_unix_s", "finished_unix_s"), staypoints, ("started_unix_s", "finished_unix_s"), agree: near)
        stayPrecision = Self.rate(staypoints, ("started_unix_s", "finished_unix_s"), stays, ("started_unix_s", "finished_unix_s")) {
            near($1, $0)
        }
        let sameFence = { (a: [String: String], b: [String: String]) in a["geofence_id"] == b["geofence_id"] }
        let dwells = try t("dwells.csv"), found = try o("dwells.csv")
        dwellRecall = Self.rate(
            dwells, ("started_unix_s", "finished_unix_s"), found, ("started_unix_s", "finished_unix_s"), agree: sameFence)
        dwellPrecision = Self.rate(
            found, ("started_unix_s", "finished_unix_s"), dwells, ("started_unix_s", "finished_unix_s"), agree: sameFence)
        let sameEnds = { (a: [String: String], b: [String: String]) in
            a["origin_geofence_id"] == b["origin_geofence_id"] && a["destination_geofence_id"] == b["destination_geofence_id"]
        }
        let trips = try t("trips.csv"), tripsFound = try o("trips.csv")
        tripRecall = Self.rate(
            trips, ("started_unix_s", "finished_unix_s"), tripsFound, ("started_unix_s", "finished_unix_s"), agree: sameEnds)
        tripPrecision = Self.rate(
            tripsFound, ("started_unix_s", "finished_unix_s"), trips, ("started_unix_s", "finished_unix_s"), agree: sameEnds)
        let legs = try t("legs.csv"), legsFound = try o("triplegs.csv")
        for truthLeg in legs {
            let st = Self.span(truthLeg, "started_unix_s", "finished_unix_s")
            for leg in legsFound where leg["device"] == truthLeg["device"] {
                let shared = Self.overlap(st, Self.span(leg, "started_unix_s", "finished_unix_s"))
                guard shared > 0 else { continue }
                modeSeconds += shared
                secondsByTrueMode[truthLeg["travel_mode"] ?? "", default: (0, 0)].all += shared
                if leg["travel_mode"] == truthLeg["travel_mode"] {
                    correctModeSeconds += shared
                    secondsByTrueMode[truthLeg["travel_mode"] ?? "", default: (0, 0)].right += shared
                }
            }
        }
    }
}
