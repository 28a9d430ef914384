import MobilityCore

/// How often a leg keeps its answer when its fixes are thinned: of the legs cut from a thinned
/// copy of the fixes, the share given the same family (on foot, bike, vehicle) and the same
/// mode as the leg as recorded, counted per leg, whatever the truth. A model whose answer
/// depends on the logger's rate says different things of one journey on two phones.
public struct LegKept: Codable, Hashable, Sendable {
    public var dataset: String
    /// Thinned legs matched to a leg as recorded (the recorded leg of the same trace whose
    /// first-to-last fix span holds the thinned leg's middle).
    public var legs: Int
    public var family: Double
    public var mode: Double

    /// Per data set (when `thinned` holds two or more, then "all") the legs of `thinned`
    /// matched to `recorded`; empty when none match.
    public static func of(thinned: [WindowOutcome], recorded: [WindowOutcome]) -> [LegKept] {
        let byTrace = Dictionary(grouping: recorded.filter { $0.span != nil }, by: \.trace)
        var pairs: [(dataset: String?, kept: WindowOutcome, original: WindowOutcome)] = []
        for leg in thinned {
            guard let span = leg.span else { continue }
            let middle = (span.lowerBound + span.upperBound) / 2
            if let original = byTrace[leg.trace]?.first(where: { $0.span!.contains(middle) && $0.truth == leg.truth }) {
                pairs.append((leg.dataset, leg, original))
            }
        }
        guard !pairs.isEmpty else { return [] }
        func kept(_ name: String, _ part: [(dataset: String?, kept: WindowOutcome, original: WindowOutcome)]) -> LegKept {
            let n = Double(part.count)
            return LegKept(
                dataset: name, legs: part.count,
                family: Double(part.filter { LegMeasures.family($0.kept.smoothed) == LegMeasures.family($0.original.smoothed) }.count) / n,
                mode: Double(part.filter { $0.kept.smoothed == $0.original.smoothed }.count) / n)
        }
        let sets = Dictionary(grouping: pairs.filter { $0.dataset != nil }) { $0.dataset! }
        let names = DataIdentity.names(ofDatasets: sets.keys)
        return (sets.count >= 2 ? sets.keys.sorted { names[$0]! < names[$1]! }.map { kept(names[$0]!, sets[$0]!) } : [])
            + [kept(sets.count >= 2 ? "all" : "legs", pairs)]
    }

    /// "name: family kept on 0.97 of 425 legs, mode on 0.88".
    public var text: String { String(format: "  %@: family kept on %.3f of %d legs, mode on %.3f", dataset, family, legs, mode) }
}
