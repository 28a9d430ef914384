import Foundation
import MobilityCore

/// Which country's emission factors a leg takes (`planning.countries`; docs/planning.md): the
/// country whose polygon in a countries layer holds the leg's first fix, so one run over
/// travellers in several countries counts each leg with its own country's factors
/// (`EmissionFactors.factor(_:year:country:)`).
///
/// The layer is any polygon layer (GeoJSON, or a GeoPackage's first feature table) whose
/// `planning.country_property` holds an ISO 3166-1 alpha-2 code, such as Natural Earth's
/// Admin 0 countries (`ISO_A2_EH`). Features of one code are one country (a mainland and its
/// islands may come as several). A feature whose code is not two letters (Natural Earth writes
/// `-99` for a few disputed areas) is dropped and said. A leg outside every polygon and a leg
/// by time (it has no fix) take the table's own country.
///
/// Without a layer, a leg's country is that of its device's time zone when it started
/// (`ZoneCountries`, from the tz database): a Helsinki phone's legs are Finland's, not the UK
/// table's. A zone of no country (a fixed offset, a nautical zone) gives the table's country.
/// A leg starting in one country and ending in another takes its start's: a leg is short
/// beside a country, and its start is where the traveller chose the mode.
public struct LegCountries: Sendable {
    /// The countries, each a zone whose id is its code, upper-cased; nil: no layer.
    public private(set) var layer: ZoneLayer?

    /// No layer: every leg takes the table's country.
    public init() {}

    /// The countries of a layer's features (`fence.id`: the code), merged by code.
    public init(path: String, fences: [(feature: Int, fence: Geofence)], dropped: [(feature: Int, reason: String)]) throws {
        var dropped = dropped
        var byCode: [String: (feature: Int, name: String, polygons: [[[GeoPoint]]])] = [:]
        for (feature, fence) in fences {
            guard EmissionFactors.isCountryCode(fence.id) else {
                dropped.append((feature, "its code \(fence.id) is not an ISO 3166-1 alpha-2 code (two letters)"))
                continue
            }
            guard let polygons = ZoneLayer.polygons(fence.shape) else {
                dropped.append((feature, "a point, not a polygon"))
                continue
            }
            let code = fence.id.uppercased()
            byCode[code, default: (feature: feature, name: fence.name, polygons: [])].polygons += polygons
        }
        let merged = byCode.sorted { $0.value.feature < $1.value.feature }.map { code, country in
            (
                feature: country.feature,
                fence: Geofence(id: code, name: country.name, kind: "country", shape: .multiPolygon(polygons: country.polygons))
            )
        }
        layer = try ZoneLayer(path: path, fences: merged, dropped: dropped)
    }

    /// The code of the country whose polygon holds `point`; nil without a layer or a point, or
    /// outside every polygon.
    public func country(of point: GeoPoint?) -> String? {
        guard let layer, let point else { return nil }
        return layer.zone(latitudeDegrees: point.latitudeDegrees, longitudeDegrees: point.longitudeDegrees).map { layer.zones[$0].id }
    }

    /// The country each of `device`'s legs started in, by the layer, else by `calendar`'s zone
    /// at the leg's start (nil: none found, the table's).
    public func countries(of device: DeviceTrips, calendar: CalendarKeys) -> [String?] {
        guard layer != nil else {
            return device.triplegs.map { ZoneCountries.country(ofZone: calendar.zone(at: $0.startSeconds)) }
        }
        return device.triplegs.indices.map { country(of: device.start(ofLeg: $0)) }
    }

    /// How the legs of a run were given their country's factors: for the log, `--json` and the report.
    public struct Tally: Sendable, Equatable, Codable {
        /// The countries layer's file name (not its folder: a moved copy says the same); nil: none.
        @NullEncodable public var layer: String?
        /// The table's own country, which legs outside the layer take.
        public var tableCountry: String
        /// Legs per country whose factors they take (outside the layer: the table's).
        public var legs: [String: Int] = [:]
        /// Legs outside every polygon of the layer (or by time), given the table's country.
        public var outside = 0
        /// Legs of a country the table has no rows for, per country: they have no CO2e.
        public var withoutFactors: [String: Int] = [:]
        /// Legs of a country the table has no rows for that took the table's own country's, as
        /// its `also_for` says, per country.
        public var borrowed: [String: Int] = [:]
        /// Countries the table has rows for that no leg took: with no layer, all but its own.
        public var unused: [String] = []
        /// The layer's features that are no country, each with its number and why.
        public var dropped: [String] = []

        enum CodingKeys: String, CodingKey {
            case layer, tableCountry = "table_country", legs, outside, withoutFactors = "without_factors", borrowed, unused, dropped
        }

        /// The line, when it warns: legs of a country without factors.
        public var warning: String? { withoutFactors.isEmpty ? nil : line }

        /// What decides a leg's country, for the lines.
        private var decidedBy: String { layer.map { "the country each leg started in (\($0))" } ?? "the country of each leg's time zone" }

        /// What the lines say of legs in countries the table has no rows for.
        private var withoutFactorsText: String {
            "the table has no factors for "
                + (withoutFactors.count == 1 ? "that country" : "those countries")
                + " (add rows with its country to planning.emission_factors, or name it in planning.emission_factors.also_for "
                + "if the table's \(tableCountry) factors apply there too)"
        }

        /// `line` as it may be published (the report, `publish`'s CO2e line): totals over
        /// everyone only. Legs per country, and the names of countries the table does not list,
        /// would say where one person travelled with no k held; `restricted/triplegs.csv`
        /// (`start_country`), the log's warning and `--json` keep them.
        public var publishedLine: String? {
            var text = "CO2e factors by " + decidedBy
            if outside > 0 { text += "; \(outside) legs outside every country of the layer or without a fix, given \(tableCountry)'s" }
            let without = withoutFactors.values.reduce(0, +)
            if without > 0 {
                text +=
                    "; \(without) legs started in a country the table has no factors for and have no CO2e (but a walk's or ride's 0) "
                    + "(the legs' table names it, start_country; add rows with its country to planning.emission_factors, "
                    + "or name it in planning.emission_factors.also_for)"
            }
            let borrowed = self.borrowed.values.reduce(0, +)
            if borrowed > 0 { text += "; \(borrowed) legs elsewhere took \(tableCountry)'s factors (planning.emission_factors.also_for)" }
            if !dropped.isEmpty {
                text +=
                    "; \(dropped.count) feature\(dropped.count == 1 ? " is" : "s are") no country and not used ("
                    + dropped.prefix(3).joined(separator: "; ") + (dropped.count > 3 ? "; …" : "") + ")"
            }
            return text
        }

        /// One line for the operator's log; nil when there is nothing to say (every leg in the
        /// table's one country).
        public var line: String? {
            guard layer != nil || !unused.isEmpty || !withoutFactors.isEmpty || !borrowed.isEmpty else { return nil }
            let counts = legs.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }
                .map { "\($0.value) in \($0.key)" }
            var text = "CO2e factors by \(decidedBy): legs with factors " + (counts.isEmpty ? "none" : counts.joined(separator: ", "))
            if outside > 0 { text += "; \(outside) outside every country of the layer or without a fix, given \(tableCountry)'s" }
            if !borrowed.isEmpty {
                text +=
                    "; of them "
                    + borrowed.sorted { $0.key < $1.key }.map { "\($0.value) in \($0.key)" }.joined(separator: ", ")
                    + " with \(tableCountry)'s factors (planning.emission_factors.also_for)"
            }
            if !withoutFactors.isEmpty {
                text +=
                    "; "
                    + withoutFactors.sorted { $0.key < $1.key }.map { "\($0.value) in \($0.key)" }.joined(separator: ", ")
                    + " have no CO2e (but a walk's or ride's 0): " + withoutFactorsText
            }
            if !unused.isEmpty { text += "; no leg started in \(unused.joined(separator: ", "))" }
            if !dropped.isEmpty {
                text +=
                    "; \(dropped.count) feature\(dropped.count == 1 ? " is" : "s are") no country and not used ("
                    + dropped.prefix(3).joined(separator: "; ") + (dropped.count > 3 ? "; …" : "") + ")"
            }
            return text
        }
    }

    /// The tally of legs that started in `countries` (nil: outside this layer, or no layer)
    /// under `factors`: what `triplegs.csv`'s `start_country` gives `pipeline publish`.
    public func tally(_ countries: [String?], factors: EmissionFactors) -> Tally {
        let own = factors.country.uppercased()
        let listed = Set(factors.countries)
        var tally = Tally(layer: layer.map { ($0.path as NSString).lastPathComponent }, tableCountry: own)
        tally.dropped = layer?.dropped.map { "feature \($0.feature): \($0.reason)" } ?? []
        for country in countries {
            guard let country else {
                tally.outside += tally.layer == nil ? 0 : 1
                tally.legs[own, default: 0] += 1
                continue
            }
            if listed.contains(country) {
                tally.legs[country, default: 0] += 1
            } else if factors.rowsCountry(for: country) != country {
                tally.legs[own, default: 0] += 1
                tally.borrowed[country, default: 0] += 1
            } else {
                tally.withoutFactors[country, default: 0] += 1
            }
        }
        tally.unused = factors.countries.filter { $0 != own && tally.legs[$0] == nil }
        return tally
    }
}
