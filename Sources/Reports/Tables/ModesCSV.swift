import Classify
import Features
import MobilityCore
import Store

/// `modes.csv`: the mode of every window, smoothed and raw, with the probability of the raw
/// choice, who decided it (model or rules) and the label when one is known.
public enum ModesCSV {
    public static func write(_ windows: [WindowInfo], prediction: ModePredictor.Prediction, to path: String) throws {
        var writer = CSVWriter(columns: OutputSchema.modes.names)
        let k = prediction.classes.count
        for (index, window) in windows.enumerated() {
            let chosen = prediction.classes.firstIndex(of: prediction.raw[index])!
            writer.append([
                window.trace, window.device, ISO8601.formatMillis(window.start), "\(window.start.secondsSince1970)",
                ISO8601.formatMillis(window.end), "\(window.end.secondsSince1970)",
                prediction.modes[index].rawValue, prediction.raw[index].rawValue,
                String(format: "%.4f", prediction.probabilities[index * k + chosen]), prediction.sources[index].rawValue,
                window.mode?.rawValue
            ])
        }
        try writer.write(to: path)
    }

    /// The same windows as store rows (`mode_windows`).
    public static func storeRows(_ windows: [WindowInfo], prediction: ModePredictor.Prediction) -> [PipelineStore.ModeWindowRow] {
        let k = prediction.classes.count
        return windows.enumerated().map { index, window in
            let chosen = prediction.classes.firstIndex(of: prediction.raw[index])!
            return PipelineStore.ModeWindowRow(
                device: window.device, trace: window.trace, startSeconds: window.start.secondsSince1970,
                endSeconds: window.end.secondsSince1970, mode: prediction.modes[index],
                rawMode: prediction.raw[index], probability: prediction.probabilities[index * k + chosen],
                decidedBy: prediction.sources[index].rawValue)
        }
    }

    /// `modes.csv` from the store's windows (what `pipeline run` writes: every classified file,
    /// not only those of this run).
    /// `shownPaths` maps each stored path to the one the file shows (below the folder given).
    public static func write(storeRows rows: [PipelineStore.ModeWindowRow], shownPaths: [String: String] = [:], to path: String) throws {
        var writer = CSVWriter(columns: OutputSchema.modes.names)
        for row in rows {
            writer.append([
                shownPaths[row.trace] ?? row.trace, row.device, ISO8601.formatMillis(Timestamp(secondsSince1970: row.startSeconds)),
                "\(row.startSeconds)", ISO8601.formatMillis(Timestamp(secondsSince1970: row.endSeconds)), "\(row.endSeconds)",
                row.mode.rawValue, row.rawMode.rawValue, row.probability.map { String(format: "%.4f", $0) }, row.decidedBy, nil
            ])
        }
        try writer.write(to: path)
    }
}
