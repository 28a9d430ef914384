import Foundation

extension Inspection {
    /// The inspection as aligned, readable lines.
    public var text: String {
        var lines = [path]
        func add(_ key: String, _ value: String) {
            lines.append("  " + key.padding(toLength: 14, withPad: " ", startingAt: 0) + value)
        }
        if let format { add("format", format + (dialect.flatMap { $0 == format ? nil : " (\($0))" } ?? "")) }
        if let device { add("device", device) }
        if let phone { add("phone", phone) }
        if let columns, !columns.isEmpty { add("columns", columns.joined(separator: ", ")) }
        if let first, let last { add("time span", "\(first) – \(last)" + (durationS.map { String(format: " (%.1f s)", $0) } ?? "")) }
        if let gpx {
            add(
                "gpx",
                ["tracks", "segments", "track_points", "routes", "route_points", "waypoints", "points_without_time"]
                    .map { "\($0) \(gpx[$0] ?? 0)" }.joined(separator: ", "))
        }
        if fixes > 0 || waypoints > 0 { add("kept", "\(fixes) fixes, \(waypoints) waypoints") }
        for (index, stream) in streams.enumerated() {
            let duplicates = stream.duplicateTimes > 0 ? ", \(stream.duplicateTimes) duplicate times" : ""
            add(index == 0 ? "streams" : "", "\(stream.sensor): \(stream.samples) samples, \(stream.timing)\(duplicates)")
        }
        if !otherSensors.isEmpty {
            add("other sensors", otherSensors.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        }
        if !labels.isEmpty { add("labels", labels.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }.joined(separator: ", ")) }
        if !unknownLabelNames.isEmpty { add("unknown modes", unknownLabelNames.joined(separator: ", ") + " (not in the mode table)") }
        if geofences > 0 { add("geofences", "\(geofences)") }
        if checkins > 0 { add("check-ins", "\(checkins)") }
        add("records read", "\(recordsRead)")
        add(
            "dropped",
            dropped.isEmpty
                ? "none"
                : dropped.map {
                    "\($0.reason) \($0.count)" + ($0.firstLine.map { " (first at line \($0))" } ?? "")
                }.joined(separator: ", "))
        if let error { add("problem", error) }
        return lines.joined(separator: "\n")
    }
}
