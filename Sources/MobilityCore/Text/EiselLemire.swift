/// Decimal significand × power of ten to the nearest double, exactly, with one or two 64-bit
/// multiplications: the Eisel–Lemire algorithm (D. Lemire, "Number Parsing at a Gigabyte per
/// Second", Software: Practice and Experience 51(8), 2021, section 5; the steps follow
/// fast_float's `compute_float`, github.com/fastfloat/fast_float, Apache-2.0/MIT).
///
/// Hand-written because real recordings are full of 16–30 digit numbers (Garmin coordinates,
/// phones writing every bit of a float) that Clinger's fast path cannot take and `strtod`
/// parses through big integers: that fallback was a third of `pipeline features` on a real
/// 100 Hz phone file. Swift's standard library has no parser over bytes.
enum EiselLemire {
    /// The double nearest to `significand` × 10^`exponent`, or nil when this algorithm cannot
    /// decide it (then the caller uses `strtod`). Normal results only: exponents whose result
    /// may be subnormal, infinite or zero are left to the caller too.
    static func double(significand w: UInt64, exponent q: Int) -> Double? {
        guard w != 0 else { return 0 }
        // 10^-307 is the smallest power whose multiples of a 19-digit significand stay normal
        // (below it lie subnormals, which strtod handles); 10^288 × 10^19 is the largest finite.
        guard q >= -307, q <= 288 else { return nil }
        let leadingZeros = w.leadingZeroBitCount
        let normalised = w << UInt64(leadingZeros)
        let index = 2 * (q - PowersOfFive.smallestExponent)
        var (high, low) = normalised.multipliedFullWidth(by: PowersOfFive.table[index])
        // Bits below the 55 that decide the result are all ones: the truncated power's low
        // half may carry into them, so add its product (Lemire, section 5, step 3).
        if high & 0x1FF == 0x1FF {
            let (carryHigh, _) = normalised.multipliedFullWidth(by: PowersOfFive.table[index + 1])
            let (sum, overflow) = low.addingReportingOverflow(carryHigh)
            low = sum
            if overflow { high &+= 1 }
        }
        // Still ambiguous after the second product: possible only outside 10^-27...10^55.
        if low == UInt64.max, q < -27 || q > 55 { return nil }
        let upperBit = Int(high >> 63)
        let shift = UInt64(upperBit + 64 - 52 - 3)
        var mantissa = high >> shift
        // floor(log2(10^q)) + 63, then the binary exponent with double's bias (1023).
        var power2 = ((217_706 * q) >> 16) + 63 + upperBit - leadingZeros + 1023
        guard power2 > 0 else { return nil }
        // Exactly halfway between two doubles: round to even (only possible for small q).
        if low <= 1, q >= -4, q <= 23, mantissa & 3 == 1, mantissa << shift == high {
            mantissa &= ~1
        }
        mantissa += mantissa & 1
        mantissa >>= 1
        if mantissa >= (2 << 52) {
            mantissa = 1 << 52
            power2 += 1
        }
        mantissa &= ~(1 << 52)
        guard power2 < 0x7FF else { return nil }
        return Double(bitPattern: UInt64(power2) << 52 | mantissa)
    }
}
