import Foundation
import Ingest
import MobilityCore
import Store

/// `pipeline forget`: removes every row of the given devices or persons (a withdrawn
/// participant) from a store in one transaction, records them as forgotten so no later run
/// reads their inputs again, and rebuilds every output from what remains, with the
/// configuration of the last complete run (`PipelineRun` stores it), so the participant is
/// gone from every file.
public struct ForgetRun {
    public var outputFolder: String
    public var devices: [String]
    public var persons: [String]
    /// The model to classify with, when the stored configuration names none that exists.
    public var model: String?
    /// Record names the store holds nothing of as forgotten (so later runs skip them) instead
    /// of failing. Default false: an unknown name is an error and nothing changes.
    public var allowUnknown = false

    public init(outputFolder: String, devices: [String], persons: [String]) {
        (self.outputFolder, self.devices, self.persons) = (outputFolder, devices, persons)
    }

    public struct Summary: Encodable, Sendable {
        /// The rows removed, per table, and the devices and persons they were of.
        public var forgotten: PipelineStore.Forgotten
        /// The names given: held by the store, forgotten before, or unknown (recorded only with `--allow-unknown`).
        public var names: PipelineStore.ForgetNames
        public var rebuilt: PipelineRun.Summary
        public var warnings: [String] = []
        public var exitStatus = 0
        enum CodingKeys: String, CodingKey { case forgotten, names, rebuilt, warnings, exitStatus = "exit_status" }
    }

    /// Names the store holds nothing of, without `--allow-unknown`: nothing was removed or
    /// recorded (`unknownNames`).
    static func unknownNames(_ names: [PipelineStore.ForgetNames.Name], storePath: String) -> PipelineError {
        PipelineError(
            .unknownNames,
            "nothing was forgotten: \(storePath) holds no \(names.map(\.described).joined(separator: "; no ")). "
                + "Give names as `pipeline inputs` lists them for the run's input folders (device …, person …); "
                + "--allow-unknown records names the store holds nothing of, so later runs skip their recordings")
    }

    public func run(progress: ProgressReporter) throws -> Summary {
        let storePath = StoreLocation.path(in: outputFolder)
        guard StoreLocation.exists(storePath) else {
            throw PipelineError(.noStore, "no pipeline store at \(storePath): give the --out folder of an earlier `pipeline run`")
        }
        var pipeline = PipelineRun(inputs: [], outputFolder: outputFolder)
        return try StoreSession.run(storePath: storePath, temporaryFolder: pipeline.temporaryFolder, progress: progress) { store in
            try forget(store: store, storePath: storePath, rebuilding: &pipeline, progress: progress)
        }
    }

    private func forget(store: PipelineStore, storePath: String, rebuilding pipeline: inout PipelineRun, progress: ProgressReporter) throws
        -> Summary
    {
        let names = try store.forgetNames(devices: devices, persons: persons)
        if !names.unknown.isEmpty && !allowUnknown { throw Self.unknownNames(names.unknown, storePath: storePath) }
        let forgotten = try store.forget(devices: devices, persons: persons)
        progress.log(
            "forget: removed \(forgotten.inputFiles) input files (\(forgotten.fixes) fixes, \(forgotten.windows) windows), "
                + "\(forgotten.checkins) check-ins, \(forgotten.labels) labels and \(forgotten.deviceCells) heat-map device cells of "
                + (forgotten.devices.isEmpty ? "no device" : "devices " + forgotten.devices.joined(separator: ", ")))
        var warnings: [String] = []
        if !names.alreadyForgotten.isEmpty {
            warnings.append(
                "already forgotten, nothing of them was left to remove: " + names.alreadyForgotten.map(\.described).joined(separator: ", "))
        }
        if !names.unknown.isEmpty {
            warnings.append(
                "the store holds nothing of " + names.unknown.map(\.described).joined(separator: "; ")
                    + "; recorded as forgotten (--allow-unknown), so later runs skip their recordings")
        }
        pipeline.configuration = try storedConfiguration(store)
        if let model { pipeline.configuration.classification.model = model }
        pipeline.configuration.classification.model = DefaultModel.resolve(pipeline.configuration.classification.model)
        var rebuilt = try pipeline.run(store: store, progress: progress)
        rebuilt.warnings.removeAll { $0.hasPrefix("no input file was found") } // none was given: the store is rebuilt from
        return Summary(forgotten: forgotten, names: names, rebuilt: rebuilt, warnings: warnings + rebuilt.warnings, exitStatus: 0)
    }

    /// The configuration of the last complete run, or the defaults before one.
    private func storedConfiguration(_ store: PipelineStore) throws -> PipelineConfiguration {
        guard let text = try store.derivedState("complete_run_configuration") else { return PipelineConfiguration() }
        return try JSONDecoder().decode(PipelineConfiguration.self, from: Data(text.utf8))
    }
}
