/// The (n, p) dominance rule for a weighted or magnitude value (Hundepool et al., *Statistical
/// Disclosure Control*, Wiley 2012, §4.2.2; τ-ARGUS's "dominance rule"): the value is published
/// only when at least k persons contributed to it and its n largest contributors together make
/// no more than p of it. Otherwise one person, or the second largest knowing their own part,
/// could read the largest one's value from it: one weighted person expanded to a district.
///
/// n = 2, p = 85 %: with two, the second largest contributor, who knows their own part, can
/// estimate the largest one's from the total no better than to within the 15 % the others make;
/// 85 % is the threshold τ-ARGUS's manual gives as its example and statistics offices commonly use
/// for business totals. The rule is applied before the audit, which then leaves out the values
/// that would give a dominated one away by subtraction (`CellSuppression`).
public struct DominanceRule: Hashable, Sendable {
    /// How many of the largest contributors are added (n).
    public static let contributors = 2
    /// The most they may make of the value (p), a fraction.
    public static let share = 0.85

    /// Whether a value made of `contributions` (one per person, ≥ 0) may be published at k. At
    /// k = 1 (`--allow-identifying-k`) one person's values are published on purpose: the rule
    /// holds nothing back either.
    public static func publishes(_ contributions: [Double], k: Int) -> Bool {
        guard k >= 2 else { return true }
        // Largest first, and added in that order: contributions often come from a dictionary,
        // whose order (and a sum's last digit with it) changes from process to process.
        let positive = contributions.filter { $0 > 0 }.sorted(by: >)
        // A value of 0 (a mode that emits nothing) tells nothing of anyone's part.
        guard !positive.isEmpty else { return true }
        guard positive.count >= k else { return false }
        let total = positive.reduce(0, +)
        let largest = positive.prefix(contributors).reduce(0, +)
        return largest <= share * total
    }

    /// Each person's part of a value over `members`.
    public static func contributions<Member>(_ members: [Member], person: (Member) -> String, value: (Member) -> Double) -> [Double] {
        var parts: [String: Double] = [:]
        for member in members { parts[person(member), default: 0] += value(member) }
        return Array(parts.values)
    }
}
