import ArgumentParser
import Classify
import Features
import Foundation
import MobilityCore
import PipelineRunner

/// Labelled recordings that only train (`Supplement`): `train` and `evaluate`.
struct SupplementOptions: ParsableArguments {
    @Option(
        name: .customLong("supplement"),
        help: ArgumentHelp(
            "Labelled trace files or folders that only train: added to every training set, never scored (repeatable).",
            discussion:
                "For modes the real data lacks, e.g. a `pipeline simulate` folder for bike. Scores stay scores on the real inputs. Default: none."
        ))
    var paths: [String] = []

    @Option(
        name: .customLong("supplement-modes"),
        help: "Keep only the supplement's windows of these modes, comma-separated, e.g. bike. Default: every labelled window.")
    var modes: String?

    @Option(
        name: .customLong("supplement-thin-hz"),
        help: ArgumentHelp(
            "Also use each supplement recording thinned to a rate drawn from LOW:HIGH Hz, as an event logger delivers samples, e.g. 2:12.",
            discussion: "Each sample kept at random with probability rate / native rate. Default: none (as read only)."))
    var thinHz: String?

    @Option(name: .customLong("supplement-copies"), help: "Thinned copies per supplement recording (with --supplement-thin-hz).")
    var copies = 2

    func validate() throws {
        if let modes { _ = try ModeList.parse(modes, option: "--supplement-modes") }
        if thinHz != nil && rates == nil {
            throw ValidationError("--supplement-thin-hz: expected LOW:HIGH in Hz with 0 < LOW ≤ HIGH, e.g. 2:12 (got \(thinHz!))")
        }
        guard copies >= 1 else { throw ValidationError("--supplement-copies must be at least 1") }
    }

    var rates: ClosedRange<Double>? {
        guard let parts = thinHz?.split(separator: ":").compactMap({ Double($0) }), parts.count == 2, parts[0] > 0, parts[0] <= parts[1]
        else { return nil }
        return parts[0]...parts[1]
    }

    /// The supplement, or nil without `--supplement`.
    var supplement: Supplement? {
        guard !paths.isEmpty else { return nil }
        var supplement = Supplement(
            paths: paths, modes: modes.flatMap { try? ModeList.parse($0, option: "--supplement-modes") }, thinnedRatesHz: rates)
        supplement.thinnedCopies = copies
        return supplement
    }
}
