import Foundation
import MobilityCore

/// How each mode moves: cruise speed, acceleration, and (for cars) stops at traffic lights.
struct Movement {
    var mode: Mode

    /// Cruise speed range, m/s: walking 1.2–1.5 (Bohannon 1997), urban cycling 4–5.5, urban
    /// driving 8–13, a regional train 22–28.
    var speedRange: ClosedRange<Double> {
        switch mode {
        case .walk: 1.2...1.5
        case .bike: 4.0...5.5
        case .car, .bus: 8.0...13.0
        case .train: 22.0...28.0
        default: 0...0
        }
    }

    /// m/s² for speeding up and braking; walkers and cyclists are at speed at once.
    var accelerationMetersPerSecond2: Double {
        switch mode {
        case .car, .bus: 1.5
        case .train: 0.6
        default: .infinity
        }
    }

    /// Positions at each second along `route` (the first at t = 0, the last at the end).
    func positions(along route: [LocalPoint], generator: inout SeededGenerator) -> [LocalPoint] {
        let total = zip(route, route.dropFirst()).reduce(0) { $0 + $1.0.distance(to: $1.1) }
        guard total > 0 else { return [route[0]] }
        let cruise = speedRange.lowerBound + (speedRange.upperBound - speedRange.lowerBound) * generator.nextUnit()
        let acceleration = accelerationMetersPerSecond2
        var travelled = 0.0, speed = acceleration.isFinite ? 0 : cruise
        var nextLight = 350 + 250 * generator.nextUnit(), stopLeft = 0
        var positions = [route[0]]
        while travelled < total {
            if stopLeft > 0 {
                stopLeft -= 1
                speed = 0
            } else {
                let brakingDistance = acceleration.isFinite ? speed * speed / (2 * acceleration) : 0
                let target = mode == .walk || mode == .bike ? cruise * (0.9 + 0.2 * generator.nextUnit()) : cruise
                let approaching =
                    total - travelled <= brakingDistance + speed
                    || (mode == .car && nextLight - travelled <= brakingDistance + speed)
                speed = approaching ? max(2, speed - acceleration) : min(target, speed + acceleration)
            }
            travelled = min(total, travelled + speed)
            if mode == .car, travelled >= nextLight {
                if generator.nextUnit() < 0.5 { stopLeft = 10 + Int(30 * generator.nextUnit()) }
                nextLight += 350 + 250 * generator.nextUnit()
            }
            positions.append(point(atDistance: travelled, along: route))
        }
        return positions
    }

    private func point(atDistance distance: Double, along route: [LocalPoint]) -> LocalPoint {
        var left = distance
        for (a, b) in zip(route, route.dropFirst()) {
            let length = a.distance(to: b)
            if left <= length { return a.toward(b, fraction: length > 0 ? left / length : 1) }
            left -= length
        }
        return route.last!
    }

    /// Streets run east–west and north–south: road modes go along one then the other, with a
    /// jog in the middle; trains run straight.
    static func route(from start: LocalPoint, to end: LocalPoint, mode: Mode) -> [LocalPoint] {
        if mode == .train { return [start, end] }
        let midNorth = start.north + (end.north - start.north) * 0.5
        return [start, LocalPoint(east: start.east, north: midNorth), LocalPoint(east: end.east, north: midNorth), end]
    }
}
