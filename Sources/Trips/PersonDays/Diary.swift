import Foundation
import MobilityCore

/// A travel diary's episode: a stretch of one person-day spent at an activity, on a trip, or
/// unaccounted for. A person-day's episodes tile it: every second of the day lies in exactly
/// one (`Diary.episodes`), so its minutes add up to 1,440 (1,380 or 1,500 when the clocks change).
public struct DiaryEpisode: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// An activity staypoint (one that ends and starts trips): at home, at work, elsewhere.
        case activity
        /// A short staypoint outside every trip (a stop before the first activity of the data).
        case stay
        /// A trip, from the end of one activity to the start of the next.
        case trip
        /// A leg outside every trip (travel before the first activity, or after a gap).
        case travel
        /// Time no staypoint, leg or trip covers: the phone recorded nothing usable.
        case untracked
    }

    public var person: String
    public var date: String
    public var kind: Kind
    public var startSeconds: Double, endSeconds: Double
    public var device: String?
    /// The store's ids of the staypoint (activity, stay), trip (trip), leg (travel), and location.
    public var staypointID: Int?, tripID: Int?, triplegID: Int?, locationID: Int?
    /// An activity's or stay's place (home, work, other); a trip's purpose (HBW, HBO, NHB).
    public var purpose: String?
    /// A trip's main mode or a leg's mode.
    public var mode: String?
    public var latitudeDegrees: Double?, longitudeDegrees: Double?

    public var seconds: Double { endSeconds - startSeconds }
}

/// The diary's episodes of every person-day: each day cut into the activities, trips and
/// untracked stretches of the person's devices. Where two things cover a moment (two phones of
/// one person, a trip across a short gap in its fixes) the first of activity, trip, stay,
/// travel wins, then the earlier start, then the device first by name.
public enum Diary {
    struct Cover {
        var rank: Int, start: Double, end: Double, device: Int
        var episode: DiaryEpisode
    }

    public static func episodes(_ result: TripAnalysis.Result, persons: [String: String], days: PersonDays) -> [DiaryEpisode] {
        let ids = TripIdentifiers(result.devices)
        var covers: [String: [Cover]] = [:]
        for (d, device) in result.devices.enumerated() {
            let person = persons[device.device] ?? device.device
            func episode(_ kind: DiaryEpisode.Kind, _ start: Double, _ end: Double) -> DiaryEpisode {
                DiaryEpisode(person: person, date: "", kind: kind, startSeconds: start, endSeconds: end, device: device.device)
            }
            var list: [Cover] = []
            var inTrips = Set<Int>()
            for (index, trip) in device.trips.enumerated() {
                inTrips.formUnion(trip.legs)
                var e = episode(.trip, trip.startSeconds, trip.endSeconds)
                (e.tripID, e.purpose, e.mode) = (ids.trip(d, index), PlacePurposes.ends(of: trip, in: device).trip, trip.mainMode?.rawValue)
                list.append(Cover(rank: 1, start: trip.startSeconds, end: trip.endSeconds, device: d, episode: e))
            }
            for (index, stay) in device.staypoints.enumerated() {
                var e = episode(stay.isActivity ? .activity : .stay, stay.startSeconds, stay.endSeconds)
                (e.staypointID, e.locationID, e.purpose) = (
                    ids.staypoint(d, index), stay.location.map(TripIdentifiers.location), stay.purpose
                )
                (e.latitudeDegrees, e.longitudeDegrees) = (stay.latitudeDegrees, stay.longitudeDegrees)
                list.append(Cover(rank: stay.isActivity ? 0 : 2, start: stay.startSeconds, end: stay.endSeconds, device: d, episode: e))
            }
            for (index, leg) in device.triplegs.enumerated() where !inTrips.contains(index) {
                var e = episode(.travel, leg.startSeconds, leg.endSeconds)
                (e.triplegID, e.mode) = (ids.tripleg(d, index), leg.mode?.rawValue)
                list.append(Cover(rank: 3, start: leg.startSeconds, end: leg.endSeconds, device: d, episode: e))
            }
            covers[person, default: []] += list.filter { $0.end > $0.start }
        }
        var episodes: [DiaryEpisode] = []
        for day in days.days {
            let inDay = (covers[day.person] ?? []).filter { $0.end > day.startSeconds && $0.start < day.endSeconds }
            var bounds = Set([day.startSeconds, day.endSeconds])
            for cover in inDay {
                bounds.insert(max(cover.start, day.startSeconds))
                bounds.insert(min(cover.end, day.endSeconds))
            }
            let cuts = bounds.sorted()
            var last: (key: Cover?, episode: DiaryEpisode)?
            for (from, to) in zip(cuts, cuts.dropFirst()) {
                let winner = inDay.filter { $0.start <= from && $0.end >= to }
                    .min { ($0.rank, $0.start, $0.device) < ($1.rank, $1.start, $1.device) }
                if let previous = last, previous.key.map({ same($0, winner) }) ?? (winner == nil) {
                    last!.episode.endSeconds = to
                    continue
                }
                if let done = last?.episode { episodes.append(done) }
                var piece =
                    winner?.episode
                    ?? DiaryEpisode(person: day.person, date: day.date, kind: .untracked, startSeconds: from, endSeconds: to)
                (piece.date, piece.startSeconds, piece.endSeconds) = (day.date, from, to)
                last = (winner, piece)
            }
            if let done = last?.episode { episodes.append(done) }
        }
        return episodes
    }

    static func same(_ a: Cover, _ b: Cover?) -> Bool {
        guard let b else { return false }
        return a.rank == b.rank && a.device == b.device && a.start == b.start && a.end == b.end
    }

    /// A person's seed statistics from the seconds per leg mode of each of their valid days:
    /// the mean hours in motion a day, and the weekly hours per mode (the mean valid day × 7);
    /// nil without a valid day.
    public static func seedStatistics(validDays: [[String: Double]]) -> (dailyInMotionHours: Double, weeklyHours: [String: Double])? {
        guard !validDays.isEmpty else { return nil }
        let days = Double(validDays.count)
        let total = validDays.reduce(into: [String: Double]()) { sum, day in sum.merge(day, uniquingKeysWith: +) }
        return (total.values.reduce(0, +) / 3600 / days, total.mapValues { $0 / 3600 / days * 7 })
    }
}
