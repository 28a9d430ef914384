import Foundation
import MobilityCore

/// One IMU recording of a trip: the phone's accelerometer and gyroscope from `start` to `end`,
/// with each sample's motion taken from the leg it falls in (still between legs).
struct IMURecording {
    var start: Double
    var end: Double
    var legs: [Truth.Leg]
    var rateHz: Double
    var seed: UInt64

    /// Writes the recording; returns the number of samples per sensor.
    func write(device: String, sensorLogger: Bool, folder: String) throws -> Int {
        let stamp = iso(start).prefix(16).replacingOccurrences(of: ":", with: "").replacingOccurrences(of: "T", with: "-")
        var motion = PhoneMotion(rateHz: rateHz, seed: seed)
        let count = Int((end - start) * rateHz)
        let covering = legs.filter { $0.endSeconds > start && $0.startSeconds < end }
        var legIndex = 0
        func mode(at time: Double) -> Mode {
            while legIndex < covering.count && covering[legIndex].endSeconds <= time { legIndex += 1 }
            guard legIndex < covering.count, covering[legIndex].startSeconds <= time else { return .still }
            return covering[legIndex].mode
        }
        if sensorLogger {
            // Sensor Logger's own export: a zip of one CSV per sensor (z, y, x order, ns times).
            var total: [UInt8] = [], linear: [UInt8] = [], gyro: [UInt8] = []
            let header = Array("time,seconds_elapsed,z,y,x\n".utf8)
            total += header
            linear += header
            gyro += header
            for i in 0..<count {
                let elapsed = Double(i) / rateHz
                let (a, w) = motion.next(mode(at: start + elapsed))
                let g = motion.gravity
                let prefix = "\(Int64(((start + elapsed) * 1e9).rounded())),\(FixedPoint.text(elapsed, digits: 3)),"
                total += (prefix + triple(a.2, a.1, a.0)).utf8
                linear += (prefix + triple(a.2 - g.2, a.1 - g.1, a.0 - g.0)).utf8
                gyro += (prefix + triple(w.2, w.1, w.0)).utf8
            }
            let metadata = Array("version,device name,recording time,platform\n3,\(device),\(iso(start)),android\n".utf8)
            try SensorLoggerZip.write(
                [("Metadata.csv", metadata), ("TotalAcceleration.csv", total), ("Accelerometer.csv", linear), ("Gyroscope.csv", gyro)],
                to: (folder as NSString).appendingPathComponent("sensor-logger-\(stamp).zip"), date: start)
        } else {
            let file = try TextFile(path: (folder as NSString).appendingPathComponent("phone-\(stamp).csv.gz"))
            try file.write("time,ax,ay,az,gx,gy,gz\n")
            for i in 0..<count {
                let time = start + Double(i) / rateHz
                let (a, w) = motion.next(mode(at: time))
                try file.write(FixedPoint.text(time, digits: 3) + "," + triple(a.0, a.1, a.2).dropLast() + "," + triple(w.0, w.1, w.2))
            }
            try file.close()
        }
        return count
    }

    private func triple(_ x: Double, _ y: Double, _ z: Double) -> String {
        FixedPoint.text(x, digits: 3) + "," + FixedPoint.text(y, digits: 3) + "," + FixedPoint.text(z, digits: 3) + "\n"
    }
}
