/// A trip as every planning table counts it: who made it, when it left, where it went (between
/// its ends, `TripEnd`), and, given weights, its person's expansion weight per valid day. Read once
/// from the restricted tables (`PlanningSample`, in Reports) for the zone OD and the mode shares.
public struct PlanningTrip: Sendable {
    public var device: String, person: String
    public var startSeconds: Double
    public var origin: (latitude: Double, longitude: Double)?
    public var destination: (latitude: Double, longitude: Double)?
    public var durationSeconds: Double, distanceMeters: Double
    /// The trip's main mode's name ("unknown" when none).
    public var mainMode: String
    /// Its person's expansion weight per valid day (`ExpansionWeights.dailyWeights`); nil
    /// without weights, 0 for a person without one.
    public var dailyWeight: Double?
    /// Its CO2e (the sum of its legs', `EmissionFactors`), grams; nil where a leg with distance
    /// has no factor.
    public var co2eGrams: Double?
    /// Its final energy (the sum of its legs', `EmissionFactors`), megajoules; nil where a leg
    /// with distance has no energy factor.
    public var energyMegajoules: Double?
    /// Whether an end is its first or last fix (no stay there, `TripEnd.Kind`).
    public var endsAtFix = false

    public init(
        device: String, person: String, startSeconds: Double, origin: (latitude: Double, longitude: Double)?,
        destination: (latitude: Double, longitude: Double)?, durationSeconds: Double, distanceMeters: Double, mainMode: String,
        dailyWeight: Double? = nil, co2eGrams: Double? = nil, energyMegajoules: Double? = nil
    ) {
        (self.dailyWeight, self.co2eGrams, self.energyMegajoules) = (dailyWeight, co2eGrams, energyMegajoules)
        (self.device, self.person, self.startSeconds, self.origin, self.destination) = (device, person, startSeconds, origin, destination)
        (self.durationSeconds, self.distanceMeters, self.mainMode) = (durationSeconds, distanceMeters, mainMode)
    }

    /// The same trip with `weights`' daily weight for its person (0 where they have none); as it
    /// is without weights.
    public func weighted(by weights: ExpansionWeights?) -> PlanningTrip {
        var trip = self
        trip.dailyWeight = weights.map { $0.dailyWeights[person] ?? 0 }
        return trip
    }
}
