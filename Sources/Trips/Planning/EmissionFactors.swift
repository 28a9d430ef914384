import MobilityCore

/// Greenhouse-gas factors per mode for one country, and for one year or several
/// (`planning.emission_factors`; docs/planning.md): what a leg of a mode emits per kilometre,
/// and whose share of it is the traveller's.
///
/// A factor is either per passenger-km (the operator's average occupancy is already in it, as
/// in a national bus or rail factor) or per vehicle-km, divided by the `occupancy` the table
/// gives (car, and a bus given per vehicle). A leg's CO2e is its distance times its mode's
/// factor per passenger-km (`grams(mode:distanceMeters:year:)`). A mode the table does not list
/// has no CO2e: `vehicle` (a motorised vehicle of unknown kind) and legs of no mode are never
/// given a guessed one; tables count and say them instead.
///
/// Factors change every year (fleets, occupancy, the grid's mix), so a row may name its `year`
/// (by default the table's): a leg takes its mode's factor of the local year it started in,
/// else of the latest year before it, else of the earliest after it (`factor(_:year:)`).
///
/// A row may name its `country` (by default the table's), so one table holds several
/// countries' factors: a leg takes the rows of the country it started in, which the countries
/// layer says (`planning.countries`, `LegCountries`); a leg outside every country of the layer,
/// or in a run without one, takes the country of its time zone (`ZoneCountries`); a leg of no
/// country (a fixed offset, a nautical zone) takes the table's. A leg in a country the table
/// lists no row for has no factor, unless `alsoFor` names that country (or is `*`): then it
/// takes the table's own country's rows, as its user said. None is borrowed unasked, save
/// the zero of a mode the table gives 0 wherever it lists it (walking, cycling).
///
/// A row may also give the energy its mode uses, `megajoulesPerKm` on the same basis (per
/// passenger-km, or per vehicle-km shared among `occupancy`): a leg's `energy_mj` is then its
/// distance times that (`megajoules(mode:distanceMeters:year:)`). It is final energy in
/// operation (tank to wheel: the fuel or electricity the vehicle uses), as a national energy
/// balance counts it. The default table gives none: DESNZ publishes no energy per passenger-km,
/// and no number is guessed; a city gives its own (docs/planning.md names sources).
///
/// The default is the UK Government's *GHG Conversion Factors for Company Reporting 2025*
/// (Department for Energy Security and Net Zero, June 2025; flat file "GHG Conversion Factor
/// 2025", kg CO2e per unit, Open Government Licence v3.0), `Business travel- land`, `- air`
/// and `- sea` (ids in each row's source). These are UK factors: a city elsewhere gives its own
/// table in the configuration, with its country, year and source.
public struct EmissionFactors: Hashable, Sendable, Codable {
    /// How a factor's kilometres are counted.
    public enum Basis: String, Hashable, Sendable, Codable {
        /// Per kilometre a passenger travels: the operator's average occupancy is in the factor.
        case passenger
        /// Per kilometre the vehicle travels, shared among `occupancy` persons.
        case vehicle
    }

    public struct Factor: Hashable, Sendable, Codable {
        public var mode: Mode
        /// Grams of CO2e per kilometre of `per`.
        public var gramsPerKm: Double
        public var per: Basis
        /// Persons in the vehicle a vehicle-km factor is shared among; 1 for a passenger-km one.
        public var occupancy: Double
        /// Where the number comes from: publication, table or row.
        public var source: String
        /// The year the factor is for; nil: the table's `year`.
        public var year: Int?
        /// Megajoules of final energy per kilometre of `per` (fuel or electricity the vehicle
        /// uses); nil where the table gives none.
        public var megajoulesPerKm: Double?
        /// ISO 3166-1 alpha-2 code of the country the factor is for; nil: the table's `country`.
        public var country: String?

        public init(
            mode: Mode, gramsPerKm: Double, per: Basis, occupancy: Double = 1, source: String, year: Int? = nil,
            megajoulesPerKm: Double? = nil, country: String? = nil
        ) {
            (self.mode, self.gramsPerKm, self.per, self.occupancy, self.source, self.year) = (
                mode, gramsPerKm, per, occupancy, source, year
            )
            (self.megajoulesPerKm, self.country) = (megajoulesPerKm, country)
        }

        enum CodingKeys: String, CodingKey { case mode, gramsPerKm, per, occupancy, source, year, megajoulesPerKm, country }

        /// `occupancy` may be left out: 1; `year`: the table's; `megajoulesPerKm`: none;
        /// `country`: the table's.
        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            mode = try container.decode(Mode.self, forKey: .mode)
            gramsPerKm = try container.decode(Double.self, forKey: .gramsPerKm)
            per = try container.decode(Basis.self, forKey: .per)
            occupancy = try container.decodeIfPresent(Double.self, forKey: .occupancy) ?? 1
            source = try container.decode(String.self, forKey: .source)
            year = try container.decodeIfPresent(Int.self, forKey: .year)
            megajoulesPerKm = try container.decodeIfPresent(Double.self, forKey: .megajoulesPerKm)
            country = try container.decodeIfPresent(String.self, forKey: .country)
        }

        /// Grams of CO2e per kilometre the traveller travels.
        public var gramsPerPassengerKm: Double { per == .vehicle ? gramsPerKm / occupancy : gramsPerKm }

        /// Megajoules per kilometre the traveller travels; nil where the row gives none.
        public var megajoulesPerPassengerKm: Double? { megajoulesPerKm.map { per == .vehicle ? $0 / occupancy : $0 } }
    }

    /// ISO 3166-1 alpha-2 code of the country the factors are for.
    public var country: String
    /// The year they are for (a row naming another year is for that one).
    public var year: Int
    /// The publication as a whole.
    public var source: String
    public var factors: [Factor]
    /// Countries (ISO 3166-1 alpha-2, or `*` for every one) whose legs take the table's own
    /// country's rows where the table lists none of theirs: the user's word that they apply
    /// there too (`also_for`). Default none.
    public var alsoFor: [String] = []

    public init(country: String, year: Int, source: String, factors: [Factor], alsoFor: [String] = []) {
        (self.country, self.year, self.source, self.factors, self.alsoFor) = (country, year, source, factors, alsoFor)
    }

    enum CodingKeys: String, CodingKey { case country, year, source, factors, alsoFor }

    /// `also_for` may be left out: none.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        country = try container.decode(String.self, forKey: .country)
        year = try container.decode(Int.self, forKey: .year)
        source = try container.decode(String.self, forKey: .source)
        factors = try container.decode([Factor].self, forKey: .factors)
        alsoFor = try container.decodeIfPresent([String].self, forKey: .alsoFor) ?? []
    }

    /// The country whose rows a leg in `place` takes: its own where the table lists it, the
    /// table's where `alsoFor` names it, else its own (which has no rows: no factor).
    public func rowsCountry(for place: String) -> String {
        let place = place.uppercased()
        guard !countries.contains(place), alsoFor.contains(where: { $0 == "*" || $0.uppercased() == place }) else { return place }
        return country.uppercased()
    }

    /// The year a row is for.
    public func year(of factor: Factor) -> Int { factor.year ?? year }

    /// The country a row is for, upper-cased.
    public func country(of factor: Factor) -> String { (factor.country ?? country).uppercased() }

    /// The countries the table has rows for: its own first, then the others in order.
    public var countries: [String] {
        let own = country.uppercased()
        return [own] + Set(factors.map { country(of: $0) }).subtracting([own]).sorted()
    }

    /// The factor of `mode` for a leg in `year` (nil: the table's year) in `country` (nil: the
    /// table's): that country's row of the mode for that year, else of the latest year before
    /// it, else of the earliest after it; nil where the table lists none for the mode in that
    /// country.
    public func factor(_ mode: Mode?, year wanted: Int? = nil, country place: String? = nil) -> Factor? {
        guard let mode else { return nil }
        let wanted = wanted ?? year
        let place = rowsCountry(for: place ?? country)
        let rows = factors.filter { $0.mode == mode && country(of: $0) == place }
        return rows.filter { year(of: $0) <= wanted }.max { year(of: $0) < year(of: $1) }
            ?? rows.min { year(of: $0) < year(of: $1) }
    }

    /// Whether `mode` emits nothing in any year and country of the table (a factor of 0, or none).
    public func emitsNothing(_ mode: Mode?) -> Bool {
        factors.filter { $0.mode == mode }.allSatisfy { $0.gramsPerKm == 0 }
    }

    /// Grams of CO2e of `distanceMeters` travelled in `mode` in `year` in `country` (nil: the
    /// table's); nil where the table has no factor for it (or no mode was decided). A leg
    /// without distance (`Tripleg.byTime`), or `still` (a leg its person said was no trip), emits 0.
    public func grams(mode: Mode?, distanceMeters: Double, year: Int? = nil, country: String? = nil) -> Double? {
        if mode == .still { return 0 } // no travel (a leg its person said was no trip)
        guard let factor = factor(mode, year: year, country: country) else {
            // Walking and cycling emit nothing in operation anywhere: a table that gives them 0
            // wherever it lists them gives 0 in a country it does not list, too.
            let nothingAnywhere = factors.contains { $0.mode == mode } && emitsNothing(mode)
            return distanceMeters > 0 && !nothingAnywhere ? nil : 0
        }
        return factor.gramsPerPassengerKm * distanceMeters / 1000
    }

    /// Grams of CO2e of `trip`, the sum of its legs' (`legs`: its device's legs), each with the
    /// factor of `year(leg start)` in `country(leg index)`; nil when a leg with distance has no factor.
    public func grams(
        of trip: Trip, legs: [Tripleg], year: (Double) -> Int? = { _ in nil }, country: (Int) -> String? = { _ in nil }
    ) -> Double? {
        sum(over: trip) { index in
            grams(
                mode: legs[index].mode, distanceMeters: legs[index].distanceMeters, year: year(legs[index].startSeconds),
                country: country(index))
        }
    }

    /// Megajoules of final energy of `distanceMeters` travelled in `mode` in `year` in `country`
    /// (nil: the table's), from the row `factor(_:year:country:)` picks; nil where that row gives
    /// no energy (or there is none). Like `grams`, a leg without distance or `still` uses 0; but
    /// a table that gives no energy at all gives none to any leg.
    public func megajoules(mode: Mode?, distanceMeters: Double, year: Int? = nil, country: String? = nil) -> Double? {
        guard givesEnergy else { return nil }
        if mode == .still { return 0 } // no travel (a leg its person said was no trip)
        guard let perKm = factor(mode, year: year, country: country)?.megajoulesPerPassengerKm else {
            return distanceMeters > 0 ? nil : 0
        }
        return perKm * distanceMeters / 1000
    }

    /// Megajoules of `trip`, the sum of its legs'; nil when a leg with distance has none.
    public func megajoules(
        of trip: Trip, legs: [Tripleg], year: (Double) -> Int? = { _ in nil }, country: (Int) -> String? = { _ in nil }
    ) -> Double? {
        sum(over: trip) { index in
            megajoules(
                mode: legs[index].mode, distanceMeters: legs[index].distanceMeters, year: year(legs[index].startSeconds),
                country: country(index))
        }
    }

    /// The sum of `value` over `trip`'s legs (by index); nil as soon as one leg has none.
    private func sum(over trip: Trip, _ value: (Int) -> Double?) -> Double? {
        var sum = 0.0
        for index in trip.legs {
            guard let part = value(index) else { return nil }
            sum += part
        }
        return sum
    }

    /// Whether any row gives the energy of its mode.
    public var givesEnergy: Bool { factors.contains { $0.megajoulesPerKm != nil } }

    /// Whether `mode`'s trips count no energy in any year: every row gives 0 or none (or there
    /// is no row): an energy anyone can guess as 0 (`CO2eTable`'s audit).
    public func usesNoEnergy(_ mode: Mode?) -> Bool {
        factors.filter { $0.mode == mode }.allSatisfy { ($0.megajoulesPerKm ?? 0) == 0 }
    }

    /// Whether any row names a year other than the table's.
    public var spansYears: Bool { factors.contains { year(of: $0) != year } }

    /// Whether any row is for a country other than the table's.
    public var spansCountries: Bool { countries.count > 1 }

    /// One line naming the table, for the log and the report.
    public var text: String {
        "CO2e factors for \(country) \(year): \(source); "
            + factors.map { factor in
                String(format: "%@ %.2f g/passenger-km", factor.mode.rawValue, factor.gramsPerPassengerKm)
                    + (factor.year.map { $0 != year ? " (\($0))" : "" } ?? "")
                    + (country(of: factor) != country.uppercased() ? " in \(country(of: factor))" : "")
                    + (factor.per == .vehicle
                        ? String(format: " (%.2f g/vehicle-km ÷ %.2g persons)", factor.gramsPerKm, factor.occupancy) : "")
                    + (factor.megajoulesPerPassengerKm.map { String(format: " and %.3f MJ/passenger-km", $0) } ?? "")
            }.joined(separator: ", ")
            + (givesEnergy ? "" : "; no energy factors (megajoules_per_km), so no energy is counted")
            + (alsoFor.isEmpty
                ? ""
                : "; \(country)'s rows also for legs in "
                    + (alsoFor.contains("*") ? "every country the table does not list" : alsoFor.joined(separator: ", ")))
    }

    /// Why the table cannot be used, or nil.
    public var problem: String? {
        if country.isEmpty || source.isEmpty { return "country and source must not be empty" }
        if let code = alsoFor.first(where: { $0 != "*" && !Self.isCountryCode($0) }) {
            return "also_for: \(code) is not an ISO 3166-1 alpha-2 code (two letters) or *"
        }
        var seen: Set<String> = []
        for factor in factors {
            if let code = factor.country, !Self.isCountryCode(code) {
                return "\(factor.mode.rawValue): country \(code) is not an ISO 3166-1 alpha-2 code (two letters)"
            }
            let place = spansCountries ? " in \(country(of: factor))" : ""
            guard seen.insert("\(factor.mode.rawValue) \(year(of: factor)) \(country(of: factor))").inserted else {
                return "\(factor.mode.rawValue) is listed twice for \(year(of: factor))\(place)"
            }
            guard (1900...2200).contains(year(of: factor)) else { return "\(factor.mode.rawValue): year \(year(of: factor)) is not a year" }
            guard factor.gramsPerKm.isFinite, factor.gramsPerKm >= 0 else {
                return "\(factor.mode.rawValue): grams_per_km must be a number ≥ 0"
            }
            if let energy = factor.megajoulesPerKm, !(energy.isFinite && energy >= 0) {
                return "\(factor.mode.rawValue): megajoules_per_km must be a number ≥ 0"
            }
            guard factor.occupancy.isFinite, factor.occupancy > 0 else { return "\(factor.mode.rawValue): occupancy must be > 0" }
            if factor.source.isEmpty { return "\(factor.mode.rawValue): source must not be empty (name the publication and table)" }
        }
        return nil
    }

    /// Whether `code` has the form of an ISO 3166-1 alpha-2 code: two ASCII letters.
    public static func isCountryCode(_ code: String) -> Bool {
        code.utf8.count == 2 && code.utf8.allSatisfy { (65...90).contains($0) || (97...122).contains($0) }
    }

    /// DESNZ 2025, flat file rows by id. Walking and cycling emit nothing in operation (the
    /// publication lists no factor for them). A car counts whole for its traveller (occupancy 1,
    /// the publication's own convention for a car journey reported per vehicle-km); set your
    /// city's occupancy to share it. `train` is any rail (`Mode`), given the national-rail factor,
    /// the highest of the publication's rail factors (light rail and tram 28.60, Underground
    /// 27.80 g). `airplane` is the domestic flight with radiative forcing, as the publication
    /// advises for the full effect of flying; `boat` the ferry foot passenger.
    public static let ukDESNZ2025 = EmissionFactors(
        country: "GB", year: 2025,
        source: "UK Government GHG Conversion Factors for Company Reporting 2025 (DESNZ), flat file, OGL v3.0",
        factors: [
            Factor(mode: .walk, gramsPerKm: 0, per: .passenger, source: "no operational emissions"),
            Factor(mode: .bike, gramsPerKm: 0, per: .passenger, source: "no operational emissions"),
            Factor(
                mode: .car, gramsPerKm: 167.25, per: .vehicle, occupancy: 1,
                source: "DESNZ 2025 25_301_3074_4_1: Cars (by size), Average car, Unknown fuel, km"),
            Factor(
                mode: .bus, gramsPerKm: 103.85, per: .passenger, source: "DESNZ 2025 25_314_3145_11_1: Bus, Average local bus, passenger.km"
            ),
            Factor(
                mode: .train, gramsPerKm: 35.46, per: .passenger, source: "DESNZ 2025 25_315_3147_11_1: Rail, National rail, passenger.km"),
            Factor(
                mode: .boat, gramsPerKm: 18.71, per: .passenger, source: "DESNZ 2025 23_318_3188_11_1: Ferry, Foot passenger, passenger.km"),
            Factor(
                mode: .airplane, gramsPerKm: 229.28, per: .passenger,
                source: "DESNZ 2025 21_316_3160_11_1: Flights, Domestic, Average passenger, With RF, passenger.km")
        ])
}
