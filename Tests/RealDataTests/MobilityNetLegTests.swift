import Classify
import Features
import Foundation
import MobilityCore
import TestSupport
import Testing

/// The shipped GPS leg model and the data it learnt from: MobilityNet's labelled legs (one
/// person, eight phones, SF Bay Area) read as a user's folder, scored leaving days out, and the
/// shipped model on a bus ride in another country it never saw.
@Suite(.serialized) struct MobilityNetLegTests {
    let cli = PipelineCLI()

    /// Two cities' legs train it (MobilityNet's one person in the Bay Area, Helsinki's eight
    /// phones), each person under the data set they came from; CBS SSI only chose its
    /// calibration (its licence does not let it train shipped weights).
    @Test func theShippedLegModelLearntFiveModesFromTwoCitiesAndNothingSimulated() throws {
        let model = try ModeModel.load(path: SharedData.projectRoot + "/models/mode-model.json")
        let legs = try #require(model.gpsLegs, "the shipped model names GPS-only legs")
        #expect(legs.classes == [.walk, .bike, .car, .bus, .train])
        let phones = (1...8).map { "helsinki-phone-\($0)" }
        #expect(legs.devices == phones + ["mobilitynet-reference", "ucb-sdb-ios-3"])
        #expect(legs.personsPerDataset == ["helsinki": phones, "mobilitynet": ["mobilitynet"]], "\(legs.personsPerDataset ?? [:])")
        #expect(legs.thinnedToSeconds == [10, 60])
        let calibration = try #require(legs.calibration, "the shipped leg model is calibrated")
        #expect(calibration.temperature > 0 && LegCalibration.thresholds.contains(calibration.typeThreshold))
        #expect(model.warnings.isEmpty && !(model.provenance.trainingInputs ?? []).contains { $0.device.hasPrefix("cbs") })
        let inputs = model.provenance.trainingInputs ?? []
        #expect(inputs.contains { $0.device == "ucb-sdb-ios-3" } && inputs.allSatisfy { !$0.device.hasPrefix("supplement:") })
        #expect(model.provenance.supplement == nil && !model.provenance.devices.contains { $0.hasPrefix("supplement:") })
        // Its recipe's scores on each data set left out, for the report's trust section: every
        // set, by folder name (no path of the training machine), walk and train scored on each.
        let heldOut = try #require(legs.heldOut, "the shipped leg model carries its held-out scores")
        #expect(heldOut.datasets.map(\.dataset) == ["cbs-ssi", "helsinki", "mobilitynet"])
        for set in heldOut.datasets {
            #expect(set.legs > 50 && set.modes.contains { $0.mode == .train && ($0.recall ?? 0) > 0.3 }, "\(set.line)")
            #expect(set.modes.allSatisfy { ($0.recall ?? 0) <= 1 && ($0.precision ?? 0) <= 1 && $0.labelledMinutes >= 0 })
        }
    }

    /// Legs held out by day: the two "devices" (fused reference tracks, one iPhone's raw fixes)
    /// record the same trips, so holding out a device would score trips the model trained on.
    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.skipMessage)))
    func mobilityNetIsReadAsAFolderAndScoredLeavingDaysOut() throws {
        let folder = try TemporaryFolder()
        let script = Process()
        script.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        script.arguments = [
            "python3", SharedData.projectRoot + "/scripts/data/mobilitynet_inputs.py", folder.file("mnet"),
            SharedData.path("gps/mobilitynet")
        ]
        let errors = Pipe()
        script.standardError = errors
        try script.run()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        script.waitUntilExit()
        #expect(
            script.terminationStatus == 0 && said.contains("196 reference tracks, 25 runs of ucb-sdb-ios-3 with 375 labelled sections"),
            "\(said)")

        let outcome = try cli.pipeline(["evaluate", "mnet", "--legs-only", "--group-by", "day", "--folds", "25", "--json"], in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let scores = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as! [String: Any]
        #expect(scores["days"] as? Int == 22, "25 runs on 22 local days")
        #expect((scores["folds"] as? [Any])?.count == 22 && scores["group_by"] as? String == "day")
        #expect((scores["evaluated"] as? String)?.contains("cross-validation by day") == true)
        let rates = try #require(scores["rates"] as? [[String: Any]])
        #expect(rates.map { $0["fixes"] as? String } == ["as recorded"] + [5, 10, 15, 30, 60].map { "one fix every \($0) s" })
        let recorded = try #require(rates.first)
        // Every section of movement with 3 or more fixes: 196 reference legs and 229 of the iPhone's.
        #expect(recorded["n_legs"] as? Int == 425)
        let support = ((recorded["model"] as? [String: Any])?["per_class"] as? [String: [String: Any]])?.mapValues { $0["support"] as? Int }
        #expect(support == ["walk": 193, "bike": 50, "car": 24, "bus": 62, "train": 96], "\(support ?? [:])")
        let interval = try #require((recorded["model"] as? [String: Any])?["macro_f1_interval"] as? [String: Double])
        #expect(interval["lower"]! < interval["upper"]!, "days resampled: \(interval)")
        print(
            "MobilityNet legs by day, as recorded: leg model macro-F1 \((recorded["model"] as? [String: Any])?["macro_f1"] ?? "")"
                + ", trackintel slow vs motorised \((recorded["coarse"] as? [String: Any])?["trackintel_macro_f1"] ?? "")")
    }

    /// Real GPS tracks of other people, receivers and countries (none trained the model; they
    /// were looked at when the leg model's features were chosen, so they are a regression guard,
    /// not a score): a city bus in Limerick (movingpandas, 1 Hz), two hikes (gpxpy's
    /// korita-zbevnica; georust's GPSMAP 64s track) and a walk (georust's Garmin "casual
    /// stroll"). The speed rules alone made the bus bike and car.
    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.skipMessage)))
    func theShippedModelNamesRealBusAndWalkingTracksOfOtherPeople() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("in"), withIntermediateDirectories: true)
        for (source, name) in [
            ("gpx/movingpandas/304 to UL 2019-02-18 0745.gpx", "bus"), ("gpx/gpxpy/korita-zbevnica.gpx", "hike1"),
            ("gpx/georust_gpx/garmin_with_extensions.gpx", "hike2"), ("gpx/georust_gpx/garmin-activity.gpx", "stroll")
        ] {
            try FileManager.default.copyItem(atPath: SharedData.path(source), toPath: folder.file("in/\(name).gpx"))
        }
        let run = try cli.pipeline(
            ["run", "in", "--out", "out", "--model", SharedData.projectRoot + "/models/mode-model.json"], in: folder.path)
        #expect(run.status == 0, "\(run.stderr)")
        let rows = try String(contentsOfFile: folder.file("out/restricted/triplegs.csv"), encoding: .utf8).split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
        let header = rows[0].map(String.init)
        let device = header.firstIndex(of: "device")!, duration = header.firstIndex(of: "duration_s")!,
            mode = header.firstIndex(of: "travel_mode")!
        var seconds: [String: [String: Double]] = [:]
        for row in rows.dropFirst() where row[mode] != "still" {
            seconds[String(row[device]), default: [:]][String(row[mode]), default: 0] += Double(row[duration])!
        }
        for (track, modes) in seconds.sorted(by: { $0.key < $1.key }) {
            print("\(track), moving seconds per mode: \(modes.sorted { $0.key < $1.key })")
        }
        for walk in ["hike1", "hike2", "stroll"] {
            let modes = seconds[walk] ?? [:]
            #expect((modes["walk"] ?? 0) >= 0.9 * modes.values.reduce(0, +), "\(walk): \(modes)")
        }
        let bus = seconds["bus"] ?? [:]
        #expect(bus.max { $0.value < $1.value }?.key == "bus", "\(bus)")
    }
}
