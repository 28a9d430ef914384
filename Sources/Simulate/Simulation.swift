import Foundation
import MobilityCore

/// The simulator's settings, with their defaults.
public struct SimulationParameters: Sendable {
    public var devices = 4
    public var days = 1
    public var seed: UInt64 = 1
    /// The first simulated day (local midnight in `timeZone`); 2024-05-06 is a Monday.
    public var startDay = "2024-05-06"
    /// The IANA zone the residents live their days in: their alarm clocks follow it, daylight
    /// saving included (a day of 23 h or 25 h keeps its hours of local time).
    public var timeZone = "UTC"
    /// Seconds between fixes on the move and at rest.
    public var gpsMovingIntervalSeconds = 1.0
    public var gpsStillIntervalSeconds = 10.0
    /// Accelerometer and gyroscope rate, Hz; 0 writes no IMU files.
    public var imuRateHz = 50.0
    /// How many of a device-day's trips the phone records IMU for (the first ones); nil for all.
    public var imuTripsPerDay: Int?
    /// How many devices record IMU at all (the first ones); nil for all. Many phones only log GPS.
    public var imuDevices: Int?
    /// The share of device-days on which the phone records no fix for a while (switched off, out
    /// of battery, the app killed): one stretch of 1–6 h starting between 00:00 and 20:00 local
    /// time, written to the truth as `untracked.csv`. 0: phones record all the time.
    public var phoneOffShare = 0.0
    /// Adds what real uploads bring: one GPX file cut off mid-point and one check-in rating
    /// outside 1–5.
    public var faults = false

    public init() {}
}

/// A whole simulation: the city, its residents and their truth.
public struct Simulation: Sendable {
    public var parameters: SimulationParameters
    public var city = City()
    public var residents: [Resident] = []
    public var truth = Truth()
    public var startSeconds: Double
    /// The residents' local time.
    public var calendar: CalendarKeys

    public init(parameters: SimulationParameters) throws {
        self.parameters = parameters
        guard let start = ISO8601.parse(parameters.startDay + "T00:00:00Z") else {
            throw PipelineError(.invalidSimulation, "start day \(parameters.startDay) is not a date (expected YYYY-MM-DD)")
        }
        guard parameters.devices > 0, parameters.days > 0 else {
            throw PipelineError(.invalidSimulation, "devices and days must be at least 1")
        }
        guard let calendar = CalendarKeys(zone: parameters.timeZone) else {
            throw PipelineError(.invalidSimulation, "time zone \(CalendarKeys.unknownZone(parameters.timeZone))")
        }
        self.calendar = calendar
        startSeconds = calendar.dayStart(calendar.dayNumber(start.secondsSince1970 + 43_200))
        var generator = SeededGenerator(seed: parameters.seed)
        for index in 0..<parameters.devices {
            residents.append(Resident.make(index: index, city: city, generator: &generator))
        }
    }

    /// Plans every resident's days (independent of the others: device i's plan depends only
    /// on the seed and i).
    public mutating func plan() {
        for (index, resident) in residents.enumerated() {
            truth = Self.merge(truth, plan(resident, index: index))
        }
    }

    public func plan(_ resident: Resident, index: Int) -> Truth {
        var planner = DayPlanner(
            city: city, resident: resident, startSeconds: startSeconds,
            seed: parameters.seed &* 1_000_003 &+ UInt64(index))
        let first = calendar.dayNumber(startSeconds)
        for day in 0..<parameters.days {
            let dayStart = calendar.dayStart(first + day)
            planner.plan(dayStartSeconds: dayStart, weekday: calendar.weekday(dayStart) < 5)
        }
        planner.finish(at: calendar.dayStart(first + parameters.days) - 1)
        return planner.truth
    }

    static func merge(_ a: Truth, _ b: Truth) -> Truth {
        var merged = a
        merged.stays += b.stays
        merged.legs += b.legs
        merged.trips += b.trips
        merged.rides += b.rides
        return merged
    }
}
