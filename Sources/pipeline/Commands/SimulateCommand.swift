import ArgumentParser
import Foundation
import PipelineRunner
import Simulate

struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Write realistic multi-device traces of a small synthetic city, with their ground truth.",
        discussion: """
            Residents commute on foot, by bike, by car or by train (walking to and from the stations), \
            lunch at a shop on some days, shop on some evenings and go to the mall at weekends. Phones log GPS \
            every second on the move and every --gps-still-interval at rest, with realistic noise, accuracy, \
            tunnels, lost fixes and rare spikes; IMU recordings of trips carry each mode's signature (steps at \
            ~2 Hz, pedalling and road vibration, suspension bounce and engine, carriage sway and rail vibration). \
            Writes GPX, IMU CSV (generic and Sensor Logger), geofences, stations, labels and train check-ins \
            to --out, and stays, dwells, legs, trips and rides as CSV to --truth. The same seed gives the \
            same files.
            """
    )

    @Option(help: "Folder for the trace files (created).")
    var out: String

    @Option(help: "Folder for the ground truth CSVs. Default: OUT/.truth (hidden, so ingest does not read it).")
    var truth: String?

    @Option(help: "Number of devices (one resident each).")
    var devices = 4

    @Option(help: "Number of days from --start-day.")
    var days = 1

    @Option(help: "Random seed; the same seed gives the same files.")
    var seed: UInt64 = 1

    @Option(help: "The first day, YYYY-MM-DD (local, in --time-zone).")
    var startDay = "2024-05-06"

    @Option(
        help: ArgumentHelp(
            "The IANA time zone the residents live their days in (their mornings follow its clock, daylight saving included).",
            valueName: "zone"))
    var timeZone = "UTC"

    @Option(help: "Seconds between GPS fixes at rest (phones log every second on the move).")
    var gpsStillInterval = 10.0

    @Option(help: "IMU sampling rate, Hz; 0 writes no IMU files.")
    var imuRate = 50.0

    @Option(help: "IMU recordings per device-day (the first trips of the day). Default: every trip.")
    var imuTripsPerDay: Int?

    @Option(help: "How many devices record IMU (the first ones). Default: all.")
    var imuDevices: Int?

    @Option(
        help: ArgumentHelp(
            "The share of device-days on which the phone records no fix for 1–6 hours (switched off, flat battery), 0–1; the truth's untracked.csv lists them.",
            valueName: "share"))
    var phoneOffShare = 0.0

    @Flag(help: "Add a GPX upload cut off mid-point and a check-in rating outside 1-5, as real data has.")
    var faults = false

    @Flag(help: "Print one JSON summary object on standard output.")
    var json = false

    func run() throws {
        var parameters = SimulationParameters()
        parameters.devices = devices
        parameters.days = days
        parameters.seed = seed
        parameters.startDay = startDay
        parameters.timeZone = timeZone
        parameters.phoneOffShare = phoneOffShare
        parameters.gpsStillIntervalSeconds = gpsStillInterval
        parameters.imuRateHz = imuRate
        parameters.imuTripsPerDay = imuTripsPerDay
        parameters.imuDevices = imuDevices
        parameters.faults = faults
        guard gpsStillInterval > 0, imuRate >= 0 else {
            throw ValidationError("--gps-still-interval must be positive and --imu-rate at least 0")
        }
        guard (0...1).contains(phoneOffShare) else { throw ValidationError("--phone-off-share is a share and must lie within 0–1") }
        let progress = ProgressReporter()
        let simulation: Simulation
        do { simulation = try Simulation(parameters: parameters) } catch {
            throw ValidationError("\(error)")
        }
        let truthFolder = truth ?? (out as NSString).appendingPathComponent(".truth")
        let started = Date()
        let summary = try runStage(json: json, progress: progress) {
            try SimulationWriter(simulation: simulation, outputFolder: out, truthFolder: truthFolder).write { progress.detail($0) }
        }
        if json {
            try JSONSummary.print(summary)
        } else {
            progress.log(
                "\(summary.devices) devices × \(summary.days) days: \(summary.fixes) fixes, \(summary.imuSamples) IMU samples "
                    + "per sensor, \(summary.files) files in \(out); truth (\(summary.stays) stays, \(summary.legs) legs, "
                    + "\(summary.trips) trips, \(summary.rides) rides) in \(truthFolder); "
                    + String(format: "%.1f s", Date().timeIntervalSince(started)))
        }
    }
}
