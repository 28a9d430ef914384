import Foundation
import MobilityCore

/// One simulated person with a phone: a home, a workplace and a way of getting there.
public struct Resident: Sendable {
    public var device: String
    public var home: Place
    public var work: Place
    /// walk, bike, car or train (train commuters walk to and from the stations).
    public var commute: Mode

    /// Commute modes by turn, so even four residents show every mode; homes are placed at
    /// a distance that suits the mode (train commuters live in the satellite town).
    static let commuteModes: [Mode] = [.walk, .bike, .car, .train]

    static func make(index: Int, city: City, generator: inout SeededGenerator) -> Resident {
        let device = String(format: "phone-%02d", index + 1)
        let commute = commuteModes[index % commuteModes.count]
        let work = city.works[index % city.works.count]
        let anchor = commute == .train ? city.stations[1].position : work.position
        let distance: ClosedRange<Double> =
            switch commute {
            case .walk: 600...1500
            case .bike: 2000...4500
            case .car: 5000...9000
            default: 300...900
            }
        let angle = 2 * Double.pi * generator.nextUnit()
        let radius = distance.lowerBound + (distance.upperBound - distance.lowerBound) * generator.nextUnit()
        let position = LocalPoint(east: anchor.east + radius * cos(angle), north: anchor.north + radius * sin(angle))
        let home = Place(id: "home-\(device)", name: "Home of \(device)", kind: .home, position: position, radiusMeters: 60)
        return Resident(device: device, home: home, work: work, commute: commute)
    }
}
