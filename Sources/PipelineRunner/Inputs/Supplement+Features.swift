import Classify
import Features

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
}
