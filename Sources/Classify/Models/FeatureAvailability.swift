/// Which feature columns a model may learn from: those that every training device recording
/// that kind of sensor (motion sensors, or GPS) delivers in at least `minimumShare` of its
/// windows.
///
/// A feature that some phones lack (TMD: two of four users' phones log the gyroscope at under
/// one event a second, so they have no gyro features) is imputed with the training mean for
/// them, and a model that leans on it learns which phone recorded a window instead of how it
/// was travelling. Dropping it costs the phones that have it little: acceleration carries
/// the mode. A researcher whose phones all log the gyroscope keeps the gyro features. A
/// device with GPS only does not vote on the motion features, nor one with motion sensors
/// only on the GPS features.
public enum FeatureAvailability {
    /// Default share 0.5: a sensor a phone delivers in most windows counts as delivered.
    public static let defaultMinimumShare = 0.5

    /// Per column, true when it passes the rule. `values` is row-major, `devices.count` rows ×
    /// `kinds.count` columns; `kinds[c]` says which kind of sensor column c comes from
    /// (`FeatureSchema.isInertial`).
    public static func usableColumns(
        values: [Double], devices: [String], kinds: [Bool],
        minimumShare: Double = defaultMinimumShare
    ) -> [Bool] {
        let columns = kinds.count
        var windows: [String: Int] = [:], present: [String: [Int]] = [:]
        for (row, device) in devices.enumerated() {
            windows[device, default: 0] += 1
            var counts = present[device] ?? [Int](repeating: 0, count: columns)
            for column in 0..<columns where values[row * columns + column].isFinite { counts[column] += 1 }
            present[device] = counts
        }
        let records = present.mapValues { counts in
            Set(kinds.indices.filter { counts[$0] > 0 }.map { kinds[$0] })
        }
        return (0..<columns).map { column in
            let voters = windows.keys.filter { records[$0]!.contains(kinds[column]) }
            return !voters.isEmpty
                && voters.allSatisfy {
                    Double(present[$0]![column]) >= minimumShare * Double(windows[$0]!)
                }
        }
    }
}
