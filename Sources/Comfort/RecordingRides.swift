import MobilityCore

extension Ride {
    /// The rides of one IMU recording that no check-in names: each part of its acceleration
    /// between pauses longer than `gapSeconds`, from its first to its last sample, measured with
    /// the device's speeds from `points`. A part that overlaps a check-in's ride of the device
    /// (`checkInRides`) is not measured twice: it comes back without a ride, as its first and
    /// last second, for the log. Parts in time order. The samples come from the caller, so this
    /// reads no file.
    public static func recording(
        device: String, trace: String, acceleration: RideAcceleration, points: [TrackPoint], checkInRides: [Ride],
        gapSeconds: Double, analyser: RideAnalyser
    ) -> [(first: Double, last: Double, ride: Ride?)] {
        acceleration.parts(splittingAtGapsOver: gapSeconds).map { part in
            let (first, last) = (part.samples.first!.time.secondsSince1970, part.samples.last!.time.secondsSince1970)
            guard !checkInRides.contains(where: { $0.window.startSeconds < last && $0.window.endSeconds > first }) else {
                return (first, last, nil)
            }
            var ride = Ride(device: device, trace: trace, window: RideWindow(startSeconds: first, endSeconds: last), status: .noIMU)
            ride.apply(analyser.analyse(part, speeds: RideAnalyser.speeds(points, from: first, to: last)))
            return (first, last, ride)
        }
    }
}
