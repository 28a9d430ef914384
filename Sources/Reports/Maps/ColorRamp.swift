/// A perceptually uniform colour ramp for counts: matplotlib's viridis at five stops,
/// interpolated linearly (dark blue for few, yellow for many; readable in grey and by most
/// colour-blind readers).
public enum ColorRamp {
    static let stops: [(Double, Double, Double)] = [
        (68, 1, 84), (59, 82, 139), (33, 145, 140), (94, 201, 98), (253, 231, 37)
    ]

    /// The colour at `fraction` in [0, 1].
    public static func color(_ fraction: Double) -> Raster.Color {
        let f = min(1, max(0, fraction.isNaN ? 0 : fraction)) * Double(stops.count - 1)
        let i = min(stops.count - 2, Int(f)), t = f - Double(i)
        let (a, b) = (stops[i], stops[i + 1])
        return Raster.Color(
            UInt8((a.0 + (b.0 - a.0) * t).rounded()), UInt8((a.1 + (b.1 - a.1) * t).rounded()),
            UInt8((a.2 + (b.2 - a.2) * t).rounded()))
    }

    /// "#rrggbb", for SVG and GeoJSON styles.
    public static func hex(_ fraction: Double) -> String {
        let c = color(fraction)
        return "#" + [c.r, c.g, c.b].map { String($0, radix: 16).leftPadded(2) }.joined()
    }
}

extension String {
    func leftPadded(_ length: Int, with pad: Character = "0") -> String {
        String(repeating: pad, count: max(0, length - count)) + self
    }
}
