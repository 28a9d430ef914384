import Features
import MobilityCore

/// The baseline that needs no training: rules on GPS speed and on the spread of acceleration
/// (of |a|, or of |a − g| for windows recorded without gravity).
/// It knows `still, walk, bike, car` (car stands for any motor vehicle: with IMU alone it
/// cannot tell car, bus and train apart). Each threshold is stated once, with its source.
public struct RuleClassifier: Sendable {
    /// Below this 85th-percentile GPS speed a device is still, m/s. Source: half the slowest
    /// comfortable walking speed of adults, 1.27 m/s (Bohannon 1997, Age and Ageing 26:15–19),
    /// rounded down for GPS jitter.
    public static let stillSpeedMps = 0.6
    /// Above this speed nobody walks, m/s. Source: maximum walking speed of adults aged
    /// 20–79, 1.75–2.53 m/s (Bohannon 1997).
    public static let maxWalkSpeedMps = 2.5
    /// Above this speed a device is in a motor vehicle rather than on a bike, m/s (29 km/h).
    /// Source: urban cycling speeds of 15–25 km/h (Copenhagen's bicycle account reports a
    /// 15.5 km/h mean); 29 km/h leaves room for fast riders and e-bikes (25 km/h assist limit,
    /// EU Regulation 168/2013).
    public static let maxBikeSpeedMps = 8.0
    /// Below this standard deviation of |a| a phone is still, m/s². Source: this project's
    /// measurement on TMD (per-window medians: still 0.015, train 0.095, car 0.48, walk 2.2).
    public static let stillAccelerationStdMps2 = 0.1
    /// At or above this standard deviation of |a| the phone is carried by a walking person,
    /// m/s². Source: the same TMD medians (walk 2.2; vehicles under 0.5).
    public static let walkAccelerationStdMps2 = 1.0
    /// The same two bounds for the standard deviation of |a − g| (`acc_dyn`), used for windows
    /// without gravity (gravity-free acceleration alone), m/s². Source: this project's
    /// measurement on TMD (per-window medians: still 0.020, train 0.081, car 0.36, bus 0.37,
    /// walk 1.46); each bound is the geometric mean of the medians it separates (still and
    /// train; bus and walk).
    public static let stillDynamicStdMps2 = 0.04
    public static let walkDynamicStdMps2 = 0.74
    /// The probability the rules give the mode they choose (the rest is spread evenly), so
    /// smoothing can still overrule a single window.
    public static let confidence = 0.85

    public static let classes: [Mode] = [.still, .walk, .bike, .car]

    private let speedColumn = FeatureSchema.index(of: "gps_speed_p85_mps")!
    private let spreadColumn = FeatureSchema.index(of: "acc_mag_std_mps2")!
    private let dynamicSpreadColumn = FeatureSchema.index(of: "acc_dyn_std_mps2")!

    public init() {}

    /// The spread of |a| in the units of the |a| thresholds: the std of |a| itself, or, for a
    /// window without gravity, the std of |a − g| rescaled so that its bounds meet the |a| bounds.
    private func spread(_ row: ArraySlice<Double>) -> Double {
        let magnitude = row[row.startIndex + spreadColumn]
        guard magnitude.isNaN else { return magnitude }
        let dynamic = row[row.startIndex + dynamicSpreadColumn]
        guard !dynamic.isNaN else { return .nan }
        if dynamic < Self.stillDynamicStdMps2 { return Self.stillAccelerationStdMps2 / 2 }
        return dynamic >= Self.walkDynamicStdMps2
            ? Self.walkAccelerationStdMps2 : (Self.stillAccelerationStdMps2 + Self.walkAccelerationStdMps2) / 2
    }

    /// The mode of one window's features, or nil when it has neither IMU nor GPS features.
    public func mode(_ row: ArraySlice<Double>) -> Mode? {
        let speed = row[row.startIndex + speedColumn], spread = spread(row)
        switch (speed.isNaN, spread.isNaN) {
        case (true, true): return nil
        case (true, false):
            if spread < Self.stillAccelerationStdMps2 { return .still }
            return spread >= Self.walkAccelerationStdMps2 ? .walk : .car
        case (false, _):
            let stepping = !spread.isNaN && spread >= Self.walkAccelerationStdMps2
            if speed < Self.stillSpeedMps { return stepping ? .walk : .still }
            if speed <= Self.maxWalkSpeedMps && (stepping || spread.isNaN) { return .walk }
            if speed <= Self.maxBikeSpeedMps { return speed <= Self.maxWalkSpeedMps && !stepping ? .still : .bike }
            return .car
        }
    }

    /// Probabilities over `classes` (rows × classes) for every window of `table`; a window
    /// without features gets a uniform row.
    public func probabilities(_ table: FeatureTable, classes: [Mode] = RuleClassifier.classes) -> [Double] {
        var result = [Double](repeating: 1 / Double(classes.count), count: table.count * classes.count)
        let rest = (1 - Self.confidence) / Double(max(1, classes.count - 1))
        for index in 0..<table.count {
            guard let mode = mode(table.row(index)), let chosen = classes.firstIndex(of: mode) else { continue }
            for c in classes.indices { result[index * classes.count + c] = c == chosen ? Self.confidence : rest }
        }
        return result
    }
}
