import Features
import Foundation
import MobilityCore

/// Labelled recordings that only train: modes the real data lacks (bike, from the simulator),
/// added to every training set, outer and inner, and never scored, so every score stays a score
/// on real people. Their devices are renamed `supplement:<device>` so that they can never be
/// grouped with a real person of the same name.
///
/// Augmentation: with `thinnedRatesHz`, each recording is used as read and `thinnedCopies` more
/// times thinned to a rate drawn from that range (`Recording.thinned`), as an event logger
/// would have delivered it; the phone's orientation is the simulator's own random rotation per
/// phone, and the gravity-free form is what the model's second classifier trains on.
public struct Supplement: Sendable {
    public var paths: [String]
    /// Only windows labelled with these modes are kept; nil keeps every labelled window.
    public var modes: Set<Mode>?
    public var thinnedRatesHz: ClosedRange<Double>?
    /// Thinned copies per recording. Default 2.
    public var thinnedCopies = 2

    public init(paths: [String], modes: Set<Mode>? = nil, thinnedRatesHz: ClosedRange<Double>? = nil) {
        self.paths = paths
        self.modes = modes
        self.thinnedRatesHz = thinnedRatesHz
    }

    /// A recording as read and, with `thinnedRatesHz`, its `thinnedCopies` thinned copies.
    public func variants(_ recording: Recording) -> [Recording] {
        guard let rates = thinnedRatesHz else { return [recording] }
        // Seeded by the device and file name, not the whole path, so the same files give the same draws in any folder.
        var generator = SeededGenerator(seed: Self.stableHash(recording.device + "/" + (recording.trace as NSString).lastPathComponent))
        return [recording] + (0..<thinnedCopies).map { _ in recording.thinned(toRateHz: generator.uniform(rates), seed: generator.next()) }
    }

    /// The windows of `table` labelled with one of `modes`, their devices renamed.
    public func kept(_ table: FeatureTable) -> FeatureTable {
        var table = table.filter { window in window.mode.map { modes?.contains($0) ?? true } ?? false }
        for index in table.windows.indices { table.windows[index].device = "supplement:" + table.windows[index].device }
        return table
    }

    /// What trained a model, for its provenance: paths, modes and augmentation.
    public var description: String {
        "supplement " + paths.joined(separator: ", ") + ": "
            + (modes.map { $0.sorted().map(\.rawValue).joined(separator: ", ") + " windows" } ?? "every labelled window")
            + (thinnedRatesHz.map { String(format: ", as read and %d× thinned to %g–%g Hz", thinnedCopies, $0.lowerBound, $0.upperBound) }
                ?? "")
    }

    /// FNV-1a of the UTF-8 bytes: the same trace gets the same seed in every process (Swift's
    /// `hashValue` is seeded per process).
    static func stableHash(_ text: String) -> UInt64 {
        text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}
