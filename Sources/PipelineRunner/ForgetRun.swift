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

    public init(outputFolder: String, devices: [String], persons: [String]) {
        (self.outputFolder, self.devices, self.persons) = (outputFolder, devices, persons)
    }

    public struct Summary: Encodable, Sendable {
        public var forgotten: PipelineStore.Forgotten
        public var rebuilt: PipelineRun.Summary
        public var warnings: [String] = []
        public var exitStatus = 0
        enum CodingKeys: String, CodingKey { case forgotten, rebuilt, warnings, exitStatus = "exit_status" }
    }

    public struct NoStore: Error, CustomStringConvertible {
        public var path: String
        public var description: String { "no pipeline store at \(path): give the --out folder of an earlier `pipeline run`" }
    }

    public func run(progress: Progress) throws -> Summary {
        let storePath = (outputFolder as NSString).appendingPathComponent(PipelineRun.storeName)
        guard FileManager.default.fileExists(atPath: storePath) else { throw NoStore(path: storePath) }
        let lock = try RunLock(storePath: storePath)
        defer { withExtendedLifetime(lock) {} }
        let store = try PipelineStore(path: storePath)
        let forgotten = try store.forget(devices: devices, persons: persons)
        progress.log("forget: removed \(forgotten.inputFiles) input files (\(forgotten.fixes) fixes, \(forgotten.windows) windows), "
                     + "\(forgotten.checkins) check-ins and \(forgotten.labels) labels of devices \(forgotten.devices.joined(separator: ", "))")
        var warnings: [String] = []
        let known = Set(try store.deviceIdentities().map(\.device))
        if forgotten.inputFiles + forgotten.checkins + forgotten.labels == 0 {
            warnings.append("nothing of \((devices.map { "device " + $0 } + persons.map { "person " + $0 }).joined(separator: ", ")) was in the store "
                            + "(devices there: \(known.sorted().prefix(10).joined(separator: ", "))); they are listed as forgotten all the same")
        }
        var pipeline = PipelineRun(inputs: [], outputFolder: outputFolder)
        pipeline.openStore = store
        pipeline.configuration = try storedConfiguration(store)
        if let model { pipeline.configuration.classification.model = model }
        pipeline.configuration.classification.model = DefaultModel.resolve(pipeline.configuration.classification.model)
        var rebuilt = try pipeline.run(progress: progress)
        rebuilt.warnings.removeAll { $0.hasPrefix("no input file was found") }  // none was given: the store is rebuilt from
        return Summary(forgotten: forgotten, rebuilt: rebuilt, warnings: warnings + rebuilt.warnings, exitStatus: 0)
    }

    /// The configuration of the last complete run, or the defaults before one.
    private func storedConfiguration(_ store: PipelineStore) throws -> PipelineConfiguration {
        guard let text = try store.derivedState("complete_run_configuration") else { return PipelineConfiguration() }
        return try JSONDecoder().decode(PipelineConfiguration.self, from: Data(text.utf8))
    }
}
