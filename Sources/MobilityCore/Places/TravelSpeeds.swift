/// The speeds that bound what a mode can be, in one place: the fix cleaner keeps a fast run of
/// fixes up to the fastest a passenger can travel, and the leg decision calls a leg a flight
/// above the fastest ground service and splits off a jump no mode reaches.
public enum TravelSpeeds {
    /// Fastest any passenger travels, m/s: 350 m/s (1,260 km/h), an airliner's cruise (230–260
    /// m/s) with a strong jet-stream tailwind. Faster between two fixes is a jump in the data
    /// (a receiver's relocation, a clock error), never a mode.
    public static let fastestAnyModeMetersPerSecond = 350.0
    /// Fastest ground service, m/s: 100 m/s (360 km/h), above the highest scheduled top speed of
    /// any train, 350 km/h (CR400 on Beijing–Shanghai; TGV, ICE, Shinkansen run at 300–320 km/h).
    /// A run of fixes faster than this over `shortestFlightMeters` is a flight.
    public static let fastestGroundMetersPerSecond = 100.0
    /// Shortest distance above ground speeds called a flight, metres: 20 km, so a few fixes of
    /// receiver noise never make one (a jump of noise spans metres to a few km).
    public static let shortestFlightMeters = 20_000.0
    /// Shortest jump split off, metres: 1 km; below it a fast pair of fixes is receiver noise
    /// that the cleaner's spike filter and the legs' smoothing absorb.
    public static let shortestJumpMeters = 1_000.0
}
