import MobilityCore

extension Ride {
    /// A passenger's check-in as a ride: its window placed in time by the device's fixes
    /// (`RideWindow`: the departure from the origin station's geofence, the arrival at the
    /// destination's), then measured from the acceleration `measure` reads for that window
    /// (the files' names as `trace`; nil when no IMU file of the device covers it). The
    /// samples come from the caller, so this reads no file.
    public static func checkIn(
        _ checkIn: CheckIn, points: [TrackPoint], origin: Geofence?, destination: Geofence?, maxRideSeconds: Double,
        analyser: RideAnalyser, measure: (RideWindow) throws -> (trace: String, acceleration: RideAcceleration)?
    ) rethrows -> Ride {
        let window = RideWindow(
            checkinSeconds: checkIn.checkinTime.secondsSince1970, points: points,
            origin: origin, destination: destination, maxRideSeconds: maxRideSeconds)
        let hasFixes = points.contains { $0.timeSeconds >= window.startSeconds && $0.timeSeconds <= window.endSeconds }
        var ride = Ride(checkIn: checkIn, window: window, status: hasFixes ? .noIMU : .noData)
        guard let (trace, acceleration) = try measure(window) else {
            ride.trace = ""
            ride.note = hasFixes ? "no IMU file of the device covers the ride" : "no IMU sample and no fix of the device inside the ride"
            return ride
        }
        ride.trace = trace
        let analysis = analyser.analyse(acceleration, speeds: RideAnalyser.speeds(points, from: window.startSeconds, to: window.endSeconds))
        ride.apply(analysis)
        if analysis.status == .noIMU && !hasFixes {
            (ride.status, ride.note) = (.noData, "no IMU sample and no fix of the device inside the ride")
        }
        return ride
    }
}
