import Foundation
import MobilityCore

/// Writes one resident's days into the truth: the night at home, the commute, lunch at a shop
/// on some days, the way home (sometimes by a shop), the evening at home; at weekends one
/// outing to the mall. Times get minutes of jitter so no two days are alike.
struct DayPlanner {
    var city: City
    var resident: Resident
    var truth = Truth()
    var generator: SeededGenerator

    private var place: Place
    private var clock: Double
    private var stayStart: Double

    init(city: City, resident: Resident, startSeconds: Double, seed: UInt64) {
        self.city = city
        self.resident = resident
        self.generator = SeededGenerator(seed: seed)
        place = resident.home
        clock = startSeconds
        stayStart = startSeconds
    }

    mutating func plan(dayStartSeconds day: Double, weekday: Bool) {
        if weekday {
            stay(until: day + hours(7.25, jitter: 0.75))
            commute(to: resident.work)
            if unit() < 0.5 {
                stay(until: day + hours(12.2, jitter: 0.3))
                go(to: city.nearestShop(to: resident.work.position), mode: .walk)
                stay(until: clock + 1500 + 900 * unit())
                go(to: resident.work, mode: .walk)
            }
            stay(until: day + hours(17.0, jitter: 0.75))
            if resident.commute != .train && unit() < 0.4 {
                go(to: city.nearestShop(to: resident.home.position), mode: resident.commute)
                stay(until: clock + 1200 + 600 * unit())
            }
            commute(to: resident.home)
        } else {
            stay(until: day + hours(10.5, jitter: 1))
            go(to: city.shops[1], mode: resident.commute == .train ? .walk : resident.commute)
            stay(until: clock + 3600 + 1800 * unit())
            go(to: resident.home, mode: resident.commute == .train ? .walk : resident.commute)
        }
    }

    /// Ends the last stay at `endSeconds` (the end of the simulation).
    mutating func finish(at endSeconds: Double) {
        stay(until: endSeconds)
        closeStay()
    }

    // MARK: - Steps

    private mutating func stay(until end: Double) {
        clock = max(clock, end.rounded())
    }

    private mutating func closeStay() {
        truth.stays.append(.init(device: resident.device, place: place, startSeconds: stayStart, endSeconds: clock))
    }

    private mutating func commute(to destination: Place) {
        guard resident.commute == .train else { return go(to: destination, mode: resident.commute) }
        let (board, alight) = destination.kind == .home ? (city.stations[0], city.stations[1]) : (city.stations[1], city.stations[0])
        let origin = place
        var modes: [Mode] = []
        var distances: [Mode: Double] = [:]
        // Leave so as to reach the platform 1–3 min before a train (every 30 min, at :05 and :35).
        let walkIn = path(from: place.position, to: board.position, mode: .walk)
        let walkSeconds = Double(walkIn.count - 1)
        let slot = 1800.0
        let scheduledDeparture = ((clock + walkSeconds + 180 - 300) / slot).rounded(.up) * slot + 300
        clock = (scheduledDeparture - 60 - 120 * unit() - walkSeconds).rounded()
        closeStay()
        let start = clock
        appendLeg(.walk, walkIn, &modes, &distances)
        let departureDelay = unit() < 0.7 ? 0 : (30 + 150 * unit()).rounded()
        clock = scheduledDeparture + departureDelay
        let rail = path(from: board.position, to: alight.position, mode: .train)
        let checkin = clock - 120 + 60 * unit()
        appendLeg(.train, rail, &modes, &distances)
        let scheduledArrival = scheduledDeparture + Self.scheduledRideSeconds
        truth.rides.append(
            .init(
                device: resident.device, train: trainNumber(departure: scheduledDeparture, northbound: destination.kind != .home),
                from: board, to: alight, checkinSeconds: checkin, scheduledDepartureSeconds: scheduledDeparture,
                scheduledArrivalSeconds: scheduledArrival, departureSeconds: scheduledDeparture + departureDelay,
                arrivalSeconds: clock))
        clock += (30 + 60 * unit()).rounded() // off the train and out of the platform
        appendLeg(.walk, path(from: alight.position, to: destination.position, mode: .walk), &modes, &distances)
        truth.trips.append(
            .init(
                device: resident.device, origin: origin, destination: destination, startSeconds: start,
                endSeconds: clock, legModes: modes, mainMode: mainMode(distances)))
        place = destination
        stayStart = clock
    }

    /// A trip by one mode; drivers walk a minute to and from the car.
    private mutating func go(to destination: Place, mode: Mode) {
        closeStay()
        let origin = place, start = clock
        var modes: [Mode] = []
        var distances: [Mode: Double] = [:]
        if mode == .car {
            let parkFrom = offset(place.position, by: 70), parkTo = offset(destination.position, by: 70)
            appendLeg(.walk, path(from: place.position, to: parkFrom, mode: .walk), &modes, &distances)
            appendLeg(.car, path(from: parkFrom, to: parkTo, mode: .car), &modes, &distances)
            appendLeg(.walk, path(from: parkTo, to: destination.position, mode: .walk), &modes, &distances)
        } else {
            appendLeg(mode, path(from: place.position, to: destination.position, mode: mode), &modes, &distances)
        }
        truth.trips.append(
            .init(
                device: resident.device, origin: origin, destination: destination, startSeconds: start,
                endSeconds: clock, legModes: modes, mainMode: mainMode(distances)))
        place = destination
        stayStart = clock
    }

    /// The timetable's run time between the two stations, seconds: 15 km at a typical
    /// 22–28 m/s with a minute for starting and stopping.
    static let scheduledRideSeconds = 660.0

    private mutating func appendLeg(_ mode: Mode, _ positions: [LocalPoint], _ modes: inout [Mode], _ distances: inout [Mode: Double]) {
        let distance = zip(positions, positions.dropFirst()).reduce(0) { $0 + $1.0.distance(to: $1.1) }
        let end = clock + Double(positions.count - 1)
        truth.legs.append(
            .init(
                device: resident.device, mode: mode, startSeconds: clock, endSeconds: end,
                distanceMeters: distance, path: positions))
        modes.append(mode)
        distances[mode, default: 0] += distance
        clock = end
    }

    private mutating func path(from start: LocalPoint, to end: LocalPoint, mode: Mode) -> [LocalPoint] {
        Movement(mode: mode).positions(along: Movement.route(from: start, to: end, mode: mode), generator: &generator)
    }

    private func mainMode(_ distances: [Mode: Double]) -> Mode {
        distances.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }!.key
    }

    private func trainNumber(departure: Double, northbound: Bool) -> String {
        let slot = Int((departure.truncatingRemainder(dividingBy: 86_400)) / 1800)
        return "TER \((northbound ? 86_100 : 86_200) + slot)"
    }

    private mutating func offset(_ point: LocalPoint, by meters: Double) -> LocalPoint {
        let angle = 2 * Double.pi * unit()
        return LocalPoint(east: point.east + meters * cos(angle), north: point.north + meters * sin(angle))
    }

    private mutating func hours(_ base: Double, jitter: Double) -> Double {
        (base + jitter * (2 * unit() - 1)) * 3600
    }

    private mutating func unit() -> Double { generator.nextUnit() }
}
