import Foundation
import MobilityCore

/// The data files the repository ships beside the binary (`models/`), read once for every test.
public enum ShippedData {
    /// `models/time-zones.bin`, the zones' borders every device's zone is looked up in.
    public static let zoneBoundariesPath = SharedData.projectRoot + "/models/time-zones.bin"

    /// The shipped boundaries, read once (a test that needs them fails if the file is missing:
    /// it is part of the repository, not of `../shared/data`).
    public static let zoneBoundaries: ZoneBoundaries = {
        do { return try ZoneBoundaries(contentsOf: zoneBoundariesPath) } catch { fatalError("\(error)") }
    }()
}
