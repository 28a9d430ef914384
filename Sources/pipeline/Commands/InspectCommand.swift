import ArgumentParser
import Foundation
import Ingest
import PipelineRunner

struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show what files were detected as and what they hold (sensors, rates, time span, counts, problems); writes nothing.",
        discussion: "Exit status 0 when every file reads, 2 when one would be quarantined."
    )

    @Argument(help: "Files or folders to inspect (a folder: every trace in it; a Sensor Logger folder is one recording).")
    var paths: [String]

    @Flag(help: "Print a JSON array, one object per file, on standard output.")
    var json = false

    @OptionGroup var input: InputOptions
    @OptionGroup var cleaning: CleaningOptions
    @OptionGroup(title: "Concurrency") var concurrency: JobsOptions

    func run() throws {
        concurrency.apply()
        let devices = try DeviceResolver(namePattern: input.namePattern)
        let columns = try input.mappings()
        var skipped: [(path: String, reason: String)] = []
        let inspections = try paths.flatMap { try Self.traces(in: $0, columns: columns, skipped: &skipped) }.map {
            Inspection.inspect(path: $0, cleaning: cleaning.parameters, devices: devices, columns: columns)
        }
        if json {
            let objects = try inspections.map { try $0.json() }
            print("[\n" + objects.joined(separator: ",\n") + "\n]")
        } else {
            print(inspections.map(\.text).joined(separator: "\n\n"))
        }
        // What a folder held that is not a trace is said, not passed over (on standard error, so
        // the JSON array stays the inspections').
        for file in skipped { FileHandle.standardError.write(Data("inspect: not inspected \(file.path): \(file.reason)\n".utf8)) }
        if inspections.contains(where: { $0.error != nil }) { throw ExitCode(2) }
    }

    /// `path` itself, or for a folder that is not one recording, the inputs found in it as
    /// `ingest` finds them (files that are not traces, such as a README, left out).
    /// Files passed over are added to `skipped` with the reason `run` would give.
    static func traces(in path: String, columns: ColumnMappings, skipped: inout [(path: String, reason: String)]) throws -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue,
            (try? FormatDetector().detect(path: path)) == nil
        else { return [path] }
        var found: [String] = []
        for input in try InputDiscovery.discover([path]) {
            guard input.problem == nil else { found.append(input.path); continue }
            do {
                if try FormatDetector().detect(path: input.path, mapping: columns.choice(for: input, manifest: nil)) != nil {
                    found.append(input.path)
                } else {
                    skipped.append((input.path, FormatDetector.whyNotATrace(path: input.path) ?? InputCatalog.notATraceExtension))
                }
            } catch { found.append(input.path) } // its problem is shown
        }
        return found
    }
}
