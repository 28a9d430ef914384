import Foundation

/// Runs the built `pipeline` executable as a user would: the one beside the test bundle, or
/// the debug build's.
public struct PipelineCLI {
    public struct Outcome {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        public init(status: Int32, stdout: String, stderr: String) { (self.status, self.stdout, self.stderr) = (status, stdout, stderr) }
    }

    public init() {}

    public static var executable: String {
        let beside = (ProcessInfo.processInfo.arguments[0] as NSString).deletingLastPathComponent
        for folder in [beside, (beside as NSString).deletingLastPathComponent, SharedData.projectRoot + "/.build/debug"] {
            let candidate = (folder as NSString).appendingPathComponent("pipeline")
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return SharedData.projectRoot + "/.build/debug/pipeline"
    }

    public func pipeline(_ arguments: [String], in folder: String) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// `traces/` with a walk of alice's (GPX), bob's phone (a gzipped IMU CSV) and a broken GPX.
    public func makeTraces(_ folder: TemporaryFolder) throws {
        var gpx = GPXBuilder()
        gpx.tracks = [[GPXBuilder.walk(count: 60)]]
        try folder.write("traces/alice/walk.gpx", gpx.text)
        try folder.write("traces/bob/phone.csv.gz", "")
        try folder.writeGzip(
            "traces/bob/phone.csv.gz", "time,ax,ay,az\n" + (0..<100).map { "\(1_700_000_000 + $0),0,0,9.8" }.joined(separator: "\n"))
        try folder.write("traces/bad.gpx", "<gpx version=\"1.1\"><trk>\n<oops></gpx>")
    }
}
