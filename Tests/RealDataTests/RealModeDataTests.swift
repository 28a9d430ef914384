import Classify
import Features
import Foundation
import MobilityCore
import PipelineRunner
import TestSupport
import Testing

/// The feature stage and the shipped model on the real labelled recordings in ../shared/data.
@Suite struct RealModeDataTests {
    static let tmdPattern = #"sensorfile_(?<device>[^_]+)_(?<mode>[^_]+)_\d+\.csv"#

    @Test func theShippedModelLoadsWithThisBuildsSchema() throws {
        let model = try ModeModel.load(path: SharedData.projectRoot + "/models/mode-model.json")
        // TMD's modes: no real, redistributable IMU recording of cycling is in ../shared/data
        // (QROWD's is for tests only), and nothing simulated trains the shipped model.
        #expect(model.classes == [.still, .walk, .car, .bus, .train])
        #expect(model.usesInertial && Set(model.provenance.devices) == ["AndreaCarpineti", "Claudio", "Damiano", "andrea"])
        #expect(model.provenance.supplement == nil)
    }

    /// The bundled traces are simulated 50 Hz phones: the shipped model, trained on TMD's
    /// 2–12 Hz event logs, must still read their still, walk and car time (the simulated modes it
    /// knows that differ physically; the simulator's train rides like a car). What it calls the
    /// simulated bike windows is printed: its IMU part knows no bike.
    @Test func theShippedModelReadsTheBundledTracesStillWalkAndCar() throws {
        let root = SharedData.projectRoot
        let model = try ModeModel.load(path: root + "/models/mode-model.json")
        let output = try FeatureRun(loader: RecordingLoader(), window: model.window).run(
            [root + "/traces"], progress: ProgressReporter(quiet: true))
        let legs = try String(contentsOfFile: root + "/traces/.truth/legs.csv", encoding: .utf8).split(separator: "\n").dropFirst()
            .map { $0.split(separator: ",").map(String.init) }
        let prediction = ModePredictor(model: model).predict(output.table)
        var hits: [Mode: (right: Int, all: Int)] = [:]
        var calledBike: [Mode: Int] = [:]
        for (index, window) in output.table.windows.enumerated() where !output.table.values[index * FeatureTable.columns].isNaN {
            let middle = (window.start.secondsSince1970 + window.end.secondsSince1970) / 2
            let leg = legs.first { $0[0] == window.device && Double($0[3])! <= middle && middle < Double($0[5])! }
            let truth = leg.map { Mode(rawValue: $0[1])! } ?? .still
            if truth == .bike { calledBike[prediction.modes[index], default: 0] += 1 }
            hits[truth, default: (0, 0)].all += 1
            if prediction.modes[index] == truth { hits[truth]!.right += 1 }
        }
        print(
            "shipped model on the bundled traces, windows right: "
                + hits.sorted { $0.key.rawValue < $1.key.rawValue }
                .map { "\($0.key.rawValue) \($0.value.right) of \($0.value.all)" }.joined(separator: ", ")
                + "; bike windows called "
                + calledBike.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", "))
        for mode in [Mode.still, .walk, .car] {
            let (right, all) = hits[mode] ?? (0, 0)
            #expect(all > 100 && Double(right) >= 0.9 * Double(all), "\(mode): \(right) of \(all) windows")
        }
    }

    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.skipMessage)))
    func everyTMDRecordingGivesLabelledWindowsOfEveryUser() throws {
        var loader = RecordingLoader()
        loader.namePattern = Self.tmdPattern
        let output = try FeatureRun(loader: loader, window: WindowParameters()).run(
            [SharedData.path("imu/tmd/raw")], progress: ProgressReporter(quiet: true))
        #expect(output.report.recordings == 85 && output.report.quarantined.isEmpty && output.report.unknownModes.isEmpty)
        #expect(Set(output.table.windows.map(\.device)) == ["AndreaCarpineti", "Claudio", "Damiano", "andrea"])
        #expect(Set(output.table.windows.compactMap(\.mode)) == [.still, .walk, .car, .bus, .train])
        #expect(output.table.windows.allSatisfy { $0.mode != nil })
        // Every recording longer than one window gives windows; TMD's 2–12 Hz streams get no frequency features.
        #expect(Set(output.table.windows.map(\.trace)).count >= 80)
        let band = FeatureSchema.index(of: "acc_mag_band_1_2hz_fraction")!, spread = FeatureSchema.index(of: "acc_mag_std_mps2")!
        for index in 0..<output.table.count {
            let row = Array(output.table.row(index))
            #expect(row[band].isNaN && !row[spread].isNaN)
        }
        // The shipped model was trained on these windows: it must at least fit them.
        let model = try ModeModel.load(path: SharedData.projectRoot + "/models/mode-model.json")
        let prediction = ModePredictor(model: model).predict(output.table)
        let matrix = ConfusionMatrix(truth: output.table.windows.map { $0.mode! }, predicted: prediction.modes)
        #expect(matrix.accuracy > 0.7, "resubstitution accuracy \(matrix.accuracy)")
    }

    @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.skipMessage)))
    func geoTecINITPhoneRecordingsAreWalkAndStill() throws {
        let files = SharedData.files(under: "imu/GeoTecINIT_sp-sw-har/DATA").filter { $0.hasSuffix("_sp.csv") }
        #expect(!files.isEmpty)
        let output = try FeatureRun(loader: RecordingLoader(), window: WindowParameters()).run(
            files, progress: ProgressReporter(quiet: true))
        #expect(output.report.quarantined.isEmpty && output.report.unknownModes.isEmpty)
        #expect(Set(output.table.windows.compactMap(\.mode)) == [.still, .walk])
        let band = FeatureSchema.index(of: "acc_mag_band_1_2hz_fraction")!
        #expect(
            output.table.count > 0
                && (0..<output.table.count).allSatisfy { !output.table.row($0)[output.table.row($0).startIndex + band].isNaN },
            "phone streams at ~100 Hz have frequency features")
    }
}
