import Classify
import Features
import MobilityCore

extension Supplement {
    /// The supplement's labelled windows of `modes`, with devices renamed, read as `loader` reads.
    public func table(loader: RecordingLoader, window: WindowParameters, progress: ProgressReporter) throws -> (
        table: FeatureTable, recordings: Int
    ) {
        var run = FeatureRun(loader: loader, window: window)
        if thinnedRatesHz != nil { run.variants = { [self] in variants($0) } }
        let output = try run.run(paths, progress: progress)
        return (kept(output.table), output.report.recordings)
    }

    /// The windows a run trains on besides its own, logged by mode (and a warning when there
    /// are none): what `train` and `evaluate` add to every training set.
    func trainingTable(loader: RecordingLoader, window: WindowParameters, progress: ProgressReporter) throws -> FeatureTable {
        let (table, recordings) = try self.table(loader: loader, window: window, progress: progress)
        var perClass: [Mode: Int] = [:]
        for window in table.windows { perClass[window.mode!, default: 0] += 1 }
        progress.log(
            "\(description): \(table.count) windows of \(recordings) recordings ("
                + perClass.sorted { $0.key < $1.key }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ") + "), training only")
        if table.count == 0 {
            progress.log(
                "warning: the supplement gave no labelled windows"
                    + (modes.map { " of " + $0.map(\.rawValue).sorted().joined(separator: ",") } ?? "") + "; it adds nothing")
        }
        return table
    }
}
