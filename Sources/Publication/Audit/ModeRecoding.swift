/// Global recoding before suppression: the modes fewer than k persons used over the whole data
/// are published together as `other`, in every table that shows modes, so that one rare mode
/// (a flight, a ferry) does not take the rows around it out by complementary suppression. A
/// statistics office recodes a sparse category before it suppresses (Hundepool et al.,
/// *Statistical Disclosure Control*, Wiley 2012, §4.2.1 and §5.2; τ-ARGUS's "recode").
///
/// `other` is still a cell like any other: made by fewer than k persons it is suppressed too.
/// In the tables a distributed run reduces (the geofence OD, the modal split) its persons are
/// taken as the most persons of any one mode in it: the reductions count each mode's persons,
/// not their union, so this lower bound is what both a single run and Spark know, and k applies
/// to it. The tables made from the trips themselves (`ODGrid`, `ZoneOD`) recode each trip
/// before grouping, and count `other`'s own persons.
public struct ModeRecoding: Sendable, Equatable {
    /// The name of the recoded modes' row and column.
    public static let other = "other"

    /// The mode names recoded into `other`.
    public var recoded: Set<String>

    public init(recoded: Set<String> = []) { self.recoded = recoded }

    /// The modes fewer than `k` persons used: `persons` gives each mode's distinct persons over
    /// the whole data (the modal split's `all` row).
    public init(persons: [String: Int], k: Int) {
        recoded = Set(persons.filter { $0.value < k }.keys)
    }

    /// The name `mode` is published under.
    public func name(_ mode: String) -> String { recoded.contains(mode) ? Self.other : mode }

    /// The recoded modes in `Mode` order, for the log and `--json`.
    public var names: [String] { recoded.sorted { (publishedModeRank($0), $0) < (publishedModeRank($1), $1) } }

    /// Counts by mode recoded: the counts of recoded modes added, their persons the largest.
    public func recode(trips: [String: Int], persons: [String: Int]) -> (trips: [String: Int], persons: [String: Int]) {
        var (outTrips, outPersons) = ([String: Int](), [String: Int]())
        for (mode, count) in trips { outTrips[name(mode), default: 0] += count }
        for (mode, count) in persons { outPersons[name(mode)] = max(outPersons[name(mode)] ?? 0, count) }
        return (outTrips, outPersons)
    }
}
