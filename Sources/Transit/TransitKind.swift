import MobilityCore

/// The kind of service a transit route runs, as the mode of a leg sees it: `rail` (every
/// guided service on rails: commuter and long-distance rail, metro and subway, light rail,
/// tram, monorail, cable tram, funicular), `bus` (bus, trolleybus, coach) and `ferry`.
///
/// From a GTFS route's `route_type` (GTFS Schedule Reference, `routes.txt`, field
/// `route_type`: 0 tram/light rail, 1 subway/metro, 2 rail, 3 bus, 4 ferry, 5 cable tram,
/// 6 aerial lift, 7 funicular, 11 trolleybus, 12 monorail) and the Extended Route Types that
/// many European feeds use (Google Transit, "Extended GTFS Route Types": 100–199 railway,
/// 200–299 coach, 400–499 urban railway, 700–799 bus, 800 trolleybus, 900–999 tram,
/// 1000 water transport, 1200 ferry, 1400 funicular). Aerial lifts, air, taxi and anything else
/// have no kind: a leg in a gondola is neither rail nor bus.
public enum TransitKind: String, CaseIterable, Sendable, Hashable, Comparable {
    case rail, bus, ferry

    public static func < (lhs: TransitKind, rhs: TransitKind) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    public init?(routeType: Int) {
        switch routeType {
        case 0, 1, 2, 5, 7, 12, 100..<200, 400..<500, 900..<1000, 1400..<1500: self = .rail
        case 3, 11, 200..<300, 700..<800, 800: self = .bus
        case 4, 1000, 1200: self = .ferry
        default: return nil
        }
    }

    /// The product's mode a ride of this kind is (`travel_mode`): rail `train`, bus `bus`,
    /// ferry `boat`.
    public var mode: Mode {
        switch self {
        case .rail: .train
        case .bus: .bus
        case .ferry: .boat
        }
    }

    /// The bit of this kind in a `Set` packed as a byte (`TransitKinds`).
    var bit: UInt8 { 1 << UInt8(Self.allCases.firstIndex(of: self)!) }
}

/// Kinds packed as a byte, for the millions of stop times and shape points a city feed has.
public struct TransitKinds: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ kind: TransitKind) { rawValue = kind.bit }

    public func contains(_ kind: TransitKind) -> Bool { rawValue & kind.bit != 0 }
    public var kinds: [TransitKind] { TransitKind.allCases.filter(contains) }
}
