/// Fixed-point decimal text without Foundation's locale-aware `String(format:)`, which costs
/// about a microsecond per value: writers of millions of coordinates and samples use this.
public enum FixedPoint {
    static let scales: [Double] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000]

    /// `value` rounded to `digits` (0–7) decimals, e.g. text(-2.5, digits: 3) == "-2.500".
    public static func text(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        let scale = scales[digits]
        let scaled = (abs(value) * scale).rounded()
        let whole = (scaled / scale).rounded(.down), fraction = Int(scaled - whole * scale)
        let fractionText = String(fraction)
        let padded = String(repeating: "0", count: max(0, digits - fractionText.count)) + fractionText
        return (value < 0 && scaled > 0 ? "-" : "") + String(Int(whole)) + (digits > 0 ? "." + padded : "")
    }
}
