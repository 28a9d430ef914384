import Foundation

extension FixedPoint {
    /// `value` exactly as `String(format: "%.<digits>f", value)` (C's `printf`) writes it, for
    /// files whose bytes were written that way and must stay the same: `printf` rounds the
    /// double's exact binary value (ties to even) and keeps the sign of a negative that rounds
    /// to zero (`-0.000000`), where `text` rounds the product `value × 10^digits` half away
    /// from zero and drops that sign. `digits` 0–7.
    ///
    /// The product is within half an ulp of the exact value times 10^digits, so when its
    /// fraction lies further than an ulp from one half, both round to the same integer and that
    /// integer's digits are written here; the rare near-halves, and values past 10^15 or not
    /// finite, go to `String(format:)`. A heat map's files format 16 coordinates a cell, and
    /// Foundation's formatter cost about a microsecond each (0.3 s of `pipeline publish` at
    /// 1,600 device-days, `perf record`).
    public static func printf(_ value: Double, digits: Int) -> String {
        let scaled = abs(value) * scales[digits]
        let fraction = scaled - scaled.rounded(.down)
        guard value.isFinite, scaled < 1e15, abs(fraction - 0.5) > scaled.ulp else { return String(format: "%.\(digits)f", value) }
        let rounded = Int(scaled.rounded())
        let scale = Int(scales[digits])
        var bytes: [UInt8] = value.sign == .minus ? [UInt8(ascii: "-")] : []
        ASCIIDigits.append(rounded / scale, to: &bytes)
        if digits > 0 {
            bytes.append(UInt8(ascii: "."))
            ASCIIDigits.append(rounded % scale, width: digits, to: &bytes)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
