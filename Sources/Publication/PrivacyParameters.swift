import MobilityCore

/// How every published number is protected (docs/privacy.md): one k for every table that
/// leaves the store (heat-map cells, OD by geofence, grid and zone, the modal split, mode
/// shares, CO2e, comfort per train and route, releases), read from `privacy:` in the
/// configuration and from `--k` on every command that publishes.
///
/// k counts distinct persons, never devices or rows: a number is published only when at
/// least k persons made it (the threshold rule of Hundepool et al., *Statistical Disclosure
/// Control*, Wiley 2012, §4.2; τ-ARGUS's "minimum frequency").
public struct PrivacyParameters: Hashable, Sendable, Codable {
    /// k: the fewest distinct persons a published number is made by. Default 3 (hides single
    /// homes, pairs and the trips of one household of two); at least 1, and below 2 only with
    /// `--allow-identifying-k`.
    public var k = 3

    public init() {}

    public init(k: Int) { self.k = k }

    /// The flag that lets k fall below 2, named in the error that asks for it.
    public static let identifyingKFlag = "--allow-identifying-k"

    /// The configuration key k had before `privacy.k`, still read with a deprecation warning.
    public static let deprecatedKey = "heatmap.minimum_devices"

    /// Why `k` may not be used: below 1 it means nothing; below 2 without `allowed` a published
    /// number can be one person's alone. Nil when it may.
    public static func kProblem(_ k: Int, allowed: Bool) -> String? {
        if k < 1 { return "k = \(k): k counts persons and must be 1 or more (default 3)" }
        guard k < 2, !allowed else { return nil }
        return "k = \(k) publishes heat-map cells, OD pairs, modal-split rows and every other table's rows that one person alone made, "
            + "which can identify them (where they live, when they travel); k counts persons and its default is 3. "
            + "Give \(identifyingKFlag) to publish so"
    }

    /// `k` from a configuration's sections: `privacy.k` and the deprecated
    /// `heatmap.minimum_devices`. Returns k and the warning to print when the old key was used;
    /// throws when both are given with different values.
    public static func k(privacy: Int?, deprecated: Int?) throws -> (k: Int, warning: String?) {
        switch (privacy, deprecated) {
        case let (k?, old?) where k != old:
            throw PipelineError(
                .invalidConfiguration, "privacy.k is \(k) and \(deprecatedKey) is \(old): they are one setting (k); give privacy.k alone")
        case let (_, old?):
            return (privacy ?? old, "\(deprecatedKey) is deprecated: it is k for every published table, now privacy.k")
        case let (k?, nil):
            return (k, nil)
        case (nil, nil):
            return (PrivacyParameters().k, nil)
        }
    }
}
