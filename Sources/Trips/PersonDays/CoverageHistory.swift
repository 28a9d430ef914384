import Foundation
import MobilityCore

/// The median person-day coverage of each trip stage run of a store, oldest first, with the
/// data each run covered (`PersonDays.data`): the nightly alarm compares a run with its panel's
/// earlier nights (`PersonDays.Summary`). A run over the same data as the last one (`--force`,
/// or another `--study-window` over the same recordings) replaces its entry instead of adding
/// one, so re-running a night neither counts it twice nor compares it with itself.
public struct CoverageHistory: Hashable, Sendable {
    public struct Run: Hashable, Sendable, Codable {
        public var median: Double
        /// What the run covered; nil for a run of a version that did not say.
        public var data: String?

        public init(median: Double, data: String?) { (self.median, self.data) = (median, data) }
    }

    public var runs: [Run] = []

    public init(runs: [Run] = []) { self.runs = runs }

    /// The history as the store keeps it (`PipelineStore.coverageHistoryKey`): an array of runs,
    /// or of bare medians as earlier versions wrote it; empty when missing or unreadable.
    public init(text: String?) {
        guard let data = text.map({ Data($0.utf8) }) else { return }
        if let runs = try? JSONDecoder().decode([Run].self, from: data) {
            self.runs = runs
        } else if let medians = try? JSONDecoder().decode([Double].self, from: data) {
            runs = medians.map { Run(median: $0, data: nil) }
        }
    }

    /// The medians of the runs before one over `data`: all of them, less the last where it
    /// covered the same data (the run being made again).
    public func earlierMedians(than data: String) -> [Double] {
        (runs.last?.data == data ? runs.dropLast() : runs[...]).map(\.median)
    }

    /// The history with this run's median: the last entry replaced where it covered the same data.
    public func recording(median: Double, data: String) -> CoverageHistory {
        var runs = runs
        if runs.last?.data == data { runs.removeLast() }
        return CoverageHistory(runs: runs + [Run(median: median, data: data)])
    }

    public var text: String {
        (try? JSONText.string(runs, keys: .asDeclared, layout: .compact)) ?? "[]"
    }
}

extension PersonDays {
    /// What these person-days were made from, for `CoverageHistory`: their persons and dates
    /// and the fixes and IMU seconds of each, so the same recordings give the same text.
    public var data: String {
        let fixes = days.reduce(0) { $0 + $1.fixes }
        let imu = days.reduce(0.0) { $0 + $1.imuSeconds }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 // FNV-1a over each day's person, date, fixes and IMU seconds
        for day in days.sorted(by: { ($0.person, $0.day) < ($1.person, $1.day) }) {
            for byte in "\(day.person)|\(day.date)|\(day.fixes)|\(Int(day.imuSeconds.rounded()))\n".utf8 {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
        }
        return "\(days.count) person-days, \(fixes) fixes, \(Int(imu.rounded())) s IMU, " + String(hash, radix: 16)
    }
}
