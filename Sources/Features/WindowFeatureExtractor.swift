import CBLAS
import Dispatch
import MobilityCore

/// Cuts a recording into sliding windows and computes every feature of `FeatureSchema`.
///
/// IMU path: the accelerometer (or linear acceleration plus gravity), gyroscope and gravity
/// streams are resampled onto one uniform grid; gravity ĝ of a window is the mean of the
/// gravity stream over it when the recording has one, else the window's mean acceleration
/// (a low-pass estimate: over 5 s the body's own accelerations average out). Each sample's
/// acceleration a then splits into a vertical part a·ĝ and a horizontal magnitude
/// |a − (a·ĝ)ĝ|; with |a|, |a − g| and |ω| these channels do not change when the phone is
/// turned. A recording of gravity-free acceleration alone (no gravity stream) has windows
/// with |a − g| (and |ω|, GPS) only: the channels that need down are missing (NaN).
/// Windows are stacked in batches into matrices and summarised by `ChannelStatistics` and
/// `SpectralFeatures` (OpenBLAS). GPS features come from the fixes around each window.
/// Recordings without IMU data get windows over their fixes with the GPS features alone.
/// Windows are laid out per run of data (`Recording.accelerationPieces`; runs of fixes), so
/// time and memory follow the samples, not the span they cover.
///
/// - Complexity: O(w·n²/b) multiply-adds in GEMM for w windows of n samples (b the batch),
///   plus O(w·n log n) for percentiles.
public struct WindowFeatureExtractor: Sendable {
    public let parameters: WindowParameters
    private let statistics: ChannelStatistics
    private let spectral: SpectralFeatures
    /// Windows stacked per matrix: large enough for GEMM to run at full speed, small enough
    /// that a device-day does not hold all its windows' samples at once.
    private let batchSize = 256

    public init(parameters: WindowParameters = WindowParameters()) {
        precondition(parameters.problem == nil, parameters.problem ?? "")
        BLASThreads.useOnePerCaller()
        self.parameters = parameters
        statistics = ChannelStatistics(samplesPerWindow: parameters.samplesPerWindow, rateHz: parameters.rateHz)
        spectral = SpectralFeatures(samplesPerWindow: parameters.samplesPerWindow, rateHz: parameters.rateHz)
    }

    public func extract(_ recording: Recording) -> FeatureTable {
        extractWithNotes(recording).table
    }

    /// The windows, and what the user should know about them (`notes`): why there are none,
    /// or what they lack (gravity, a rate high enough for the frequency features).
    public func extractWithNotes(_ recording: Recording) -> (table: FeatureTable, notes: [String]) {
        let fixes = recording.fixes.timedInOrder
        if let rate = streamRateTooLow(recording) {
            // Too slow for the IMU features anywhere: the fixes decide, as for a GPS-only trace.
            let table = extractGPS(recording, fixes: fixes)
            return (table, [table.count == 0 ? whyNoWindows(recording, pieces: []) : tooSlowNote(rate, gpsWindows: table.count)])
        }
        let pieces = recording.accelerationPieces(splittingAtGapsOver: parameters.maxGapSeconds)
        guard !pieces.isEmpty else {
            let table = extractGPS(recording, fixes: fixes)
            return (table, table.count == 0 ? [whyNoWindows(recording, pieces: pieces)] : [])
        }
        var table = FeatureTable()
        var seen = PieceFacts()
        for piece in pieces {
            guard let signals = ResampledSignals(piece, parameters: parameters) else { continue }
            seen.record(signals, minimumRateHz: parameters.minimumSpectralRateHz)
            let usable = signals.accelerationRateHz >= WindowParameters.minimumIMURateHz
            let part = features(recording, starts: windowStarts(grid: signals.grid), signals: usable ? signals : nil, fixes: fixes)
            if table.count == 0 { table = part } else { table.append(part) } // one piece (the usual case): no copy
        }
        guard table.count > 0 else { return (table, [whyNoWindows(recording, pieces: pieces, seen: seen)]) }
        return (table, notes(seen, pieces: pieces.count))
    }

    /// Windows over the fixes alone, laid out per run of fixes (a pause longer than the GPS
    /// context starts a new run), so that a track's windows follow its fixes, not its span.
    ///
    /// Each segment of the track (fixes no more than `widestContextSeconds` apart) adapts to its
    /// own fix interval: a device's track merges its files, and a logger writing a fix a minute
    /// beside a phone's 1 Hz files must get the context and slack of its own interval, not the
    /// device's median (which left its windows without a fix, and its legs without a mode).
    private func extractGPS(_ recording: Recording, fixes: [PositionFix]) -> FeatureTable {
        var table = FeatureTable()
        extractGPS(recording, fixes: fixes, piece: .max) { part in
            if table.count == 0 { table = part } else { table.append(part) }
        }
        return table
    }

    /// The GPS windows of a recording of fixes alone (no IMU), handed to `body` in order in
    /// pieces of at most `maxWindows`: the windows and rows `extract` gives, without holding
    /// them all. A device's year at 1 Hz has millions of windows of a full row each; each
    /// window's features depend only on the fixes around it, so the pieces change nothing.
    public func forEachGPSPiece(_ recording: Recording, maxWindows: Int, _ body: (FeatureTable) -> Void) {
        let fixes = recording.fixes.timedInOrder
        guard recording.accelerationPieces(splittingAtGapsOver: parameters.maxGapSeconds).isEmpty else {
            body(extract(recording)) // IMU too: windowed as one
            return
        }
        extractGPS(recording, fixes: fixes, piece: max(1, maxWindows)) { body($0) }
    }

    /// The same pieces for a device's track (`TrackFixes`, in time order): the windows and rows
    /// a recording of these fixes alone gives, but only the fixes one piece's windows read are
    /// made `PositionFix`es at a time, so the track is never copied whole.
    public func forEachGPSPiece(
        _ fixes: TrackFixes, trace: String, device: String, maxWindows: Int, _ body: (FeatureTable) -> Void
    ) {
        extractGPS(Recording(trace: trace, device: device), fixes: fixes, times: fixes.times, piece: max(1, maxWindows), body)
    }

    /// At most how many windows `forEachGPSPiece` hands over for `fixes` alone (in time order):
    /// what a caller keeping every window reserves, so its arrays are not grown by doubling.
    public func gpsWindowBound(_ fixes: [PositionFix]) -> Int {
        gpsWindowBound(times: fixes.timedInOrder.map { $0.time!.secondsSince1970 })
    }

    /// The same for fixes at `times` (seconds since 1970, in order).
    public func gpsWindowBound(times: [Double]) -> Int { windowBound(times) }

    /// The same for a track's fixes (`TrackFixes.times`).
    public func gpsWindowBound(times: TrackFixes.Times) -> Int { windowBound(times) }

    private func windowBound(_ times: some FixTimes) -> Int {
        Self.segments(times).reduce(0) { count, segment in count + gpsStarts(times.segment(segment)).starts.count }
    }

    /// The runs of `times` between gaps no window bridges.
    private static func segments(_ times: some FixTimes) -> [Range<Int>] {
        Recording.runs(count: times.count, splittingAtGapsOver: widestContextSeconds) { times[$0] }
    }

    /// A segment's GPS context and its windows' starts.
    private func gpsStarts(_ segmentTimes: some FixTimes) -> (context: Double, starts: [Timestamp]) {
        let context = gpsContextSeconds(segmentTimes)
        let starts = Recording.runs(count: segmentTimes.count, splittingAtGapsOver: context) { segmentTimes[$0] }.flatMap { run in
            gpsWindowStarts(
                first: Timestamp(secondsSince1970: segmentTimes[run.lowerBound]),
                last: Timestamp(secondsSince1970: segmentTimes[run.upperBound - 1]))
        }
        return (context, starts)
    }

    private func extractGPS(_ recording: Recording, fixes: [PositionFix], piece: Int, _ body: (FeatureTable) -> Void) {
        extractGPS(recording, fixes: fixes, times: fixes.map { $0.time!.secondsSince1970 }, piece: piece, body)
    }

    /// `fixes` in time order, `times` theirs. Each piece's windows get an array of only the
    /// fixes their features read (within half the context of a window's middle, `computeGPS`),
    /// so neither a segment's fixes nor its times are copied per piece.
    private func extractGPS<Fixes: RandomAccessCollection<PositionFix>>(
        _ recording: Recording, fixes: Fixes, times: some FixTimes, piece: Int, _ body: (FeatureTable) -> Void
    ) where Fixes.Index == Int {
        for segment in Self.segments(times) {
            let segmentTimes = times.segment(segment) // one segment of an array (the usual case): no copy
            let (context, starts) = gpsStarts(segmentTimes)
            let slack = fixSlack(segmentTimes)
            for first in stride(from: 0, to: max(starts.count, 1), by: piece) {
                let windows = Array(starts[first..<(starts.count - first > piece ? first + piece : starts.count)])
                var read = 0..<0
                if let earliest = windows.first, let latest = windows.last {
                    // A superset of what `computeGPS` reads: a window's middle lies between its start and end.
                    let half = context / 2
                    read =
                        segmentTimes.firstIndex(notBelow: earliest.secondsSince1970 - half) {
                            $0
                        }..<segmentTimes.firstIndex(
                            notBelow: latest.secondsSince1970 + parameters.lengthSeconds + half + 1
                        ) { $0 }
                }
                let pieceFixes = Array(fixes[(segment.lowerBound + read.lowerBound)..<(segment.lowerBound + read.upperBound)])
                // Each window's fixes are searched among the piece's (`read` holds every fix within
                // `slack` of a window: slack < half the context), not the segment's: the same
                // answers, but a year's track in a file is not probed across its pages per window.
                body(
                    dropWindowsWithoutFixes(
                        features(recording, starts: windows, signals: nil, fixes: pieceFixes, contextSeconds: context),
                        times: segmentTimes.segment(read), slack: slack))
            }
        }
    }

    /// The widest span of fixes a window's GPS features ever use, seconds: 2.5 × the sparsest
    /// interval (300 s). Fixes farther apart share no window, so the segments between such gaps
    /// are windowed apart, each with its own interval.
    static let widestContextSeconds = 2.5 * sparsestIntervalSeconds

    private func features(
        _ recording: Recording, starts windows: [Timestamp], signals: ResampledSignals?,
        fixes: [PositionFix], contextSeconds: Double? = nil
    ) -> FeatureTable {
        guard !windows.isEmpty else { return FeatureTable() }
        var table = FeatureTable()
        table.values = [Double](repeating: .nan, count: windows.count * FeatureTable.columns)
        table.windows = windows.map { start in
            let end = start.adding(seconds: parameters.lengthSeconds)
            let label = recording.label(at: start.adding(seconds: parameters.lengthSeconds / 2))
            return WindowInfo(
                trace: recording.trace, device: recording.device, start: start, end: end,
                labelName: label?.rawName, mode: label?.mode)
        }
        if let signals {
            // Batches are independent and write disjoint rows, so they run side by side (`Jobs`).
            let batches = stride(from: 0, to: windows.count, by: batchSize).map { $0..<min(windows.count, $0 + batchSize) }
            table.values.withUnsafeMutableBufferPointer { values in
                // Shared across the batches' threads: each writes only its own windows' rows.
                nonisolated(unsafe) let output = values
                Jobs.perform(batches.count) { index in
                    computeIMU(signals, windows: batches[index], into: output)
                }
            }
        }
        computeGPS(fixes, windows: table.windows, contextSeconds: contextSeconds, into: &table.values)
        return dropEmptyWindows(table)
    }

    /// How far from a window a fix may lie and still count as in it, seconds: half the
    /// segment's typical interval for a sparse logger, none at 1 Hz (`dropWindowsWithoutFixes`).
    private func fixSlack(_ times: some FixTimes) -> Double {
        let interval = Self.typicalIntervalSeconds(times)
        return interval > parameters.lengthSeconds ? min(interval, Self.sparsestIntervalSeconds) / 2 : 0
    }

    /// Without IMU, a window is only classified where the device reported a position inside it:
    /// the context around it alone would carry a track across a pause (or across the span an
    /// IMU recording of the same device covers).
    /// A sparse logger's windows (a fix every 10–120 s) rarely hold a fix: for them a fix within
    /// half the track's typical interval of the window counts, which still never bridges a pause.
    private func dropWindowsWithoutFixes(_ table: consuming FeatureTable, times: some FixTimes, slack: Double) -> FeatureTable {
        var table = table
        table.retainAll { window in
            let first = times.firstIndex(notBelow: window.start.secondsSince1970 - slack) { $0 }
            return first < times.count && times[first] <= window.end.secondsSince1970 + slack
        }
        return table
    }

    /// Sparsest fix interval the GPS windows adapt to, seconds: one fix every 2 minutes (a
    /// context of 5 minutes). It bounds the windows laid per fix at 120 s / 2.5 s hop = 48, so
    /// the cost still follows the fixes; a sparser track gets windows only near its fixes.
    static let sparsestIntervalSeconds = 120.0

    /// The span of fixes around a window its GPS features use, seconds: `gpsContextSeconds`
    /// (or the window, when longer), widened for a sparse track to 2.5 × its median fix
    /// interval (at most `sparsestIntervalSeconds`), so that every window sees two or three
    /// fixes. A logger writing one fix a minute thus gets windows with speeds, not none.
    func gpsContextSeconds(_ times: some FixTimes) -> Double {
        max(
            parameters.gpsContextSeconds, parameters.lengthSeconds,
            2.5 * min(Self.typicalIntervalSeconds(times), Self.sparsestIntervalSeconds))
    }

    /// The median time between consecutive fixes, seconds; 0 for fewer than two. Counted by
    /// value (`Quantile.Tally`, the same median to the bit): an array of the intervals and its
    /// sorted copy were 26 MB at 1.6 M fixes, beside the track.
    static func typicalIntervalSeconds(_ times: some FixTimes) -> Double {
        guard times.count >= 2 else { return 0 }
        var intervals = Quantile.Tally()
        for index in 1..<times.count { intervals.add(times[index] - times[index - 1]) }
        return intervals.quantile(0.5)!
    }

    private func windowStarts(grid: UniformGrid) -> [Timestamp] {
        let n = parameters.samplesPerWindow
        guard grid.count >= n else { return [] }
        let hop = max(1, Int((parameters.hopSeconds * parameters.rateHz).rounded()))
        return stride(from: 0, through: grid.count - n, by: hop).map { Timestamp(secondsSince1970: grid.time(at: $0)) }
    }

    private func gpsWindowStarts(first: Timestamp, last: Timestamp) -> [Timestamp] {
        let span = first.seconds(until: last)
        guard span >= parameters.lengthSeconds else { return [] }
        return stride(from: 0, through: span - parameters.lengthSeconds, by: parameters.hopSeconds).map { first.adding(seconds: $0) }
    }

    private func computeIMU(_ signals: ResampledSignals, windows: Range<Int>, into values: UnsafeMutableBufferPointer<Double>) {
        let n = parameters.samplesPerWindow, rows = windows.count, stride = FeatureTable.columns
        let hop = max(1, Int((parameters.hopSeconds * parameters.rateHz).rounded()))
        let channels = FeatureSchema.Channel.allCases
        var blocks = [[Double]](repeating: [Double](repeating: 0, count: rows * n), count: channels.count)
        var valid = [Bool](repeating: true, count: rows), gyroValid = [Bool](repeating: signals.gyro != nil, count: rows)
        for (row, window) in windows.enumerated() {
            let first = window * hop
            valid[row] = signals.fillChannels(from: first, count: n, row: row, blocks: &blocks, gyroValid: &gyroValid[row])
        }
        var output = [Double](repeating: .nan, count: rows * stride)
        let perChannel = FeatureSchema.perChannelCount
        for (index, channel) in channels.enumerated() {
            let column = index * perChannel
            statistics.compute(block: &blocks[index], rows: rows, into: &output, outputStride: stride, column: column)
            spectral.compute(
                centered: blocks[index], rows: rows, into: &output, outputStride: stride,
                column: column + ChannelStatistics.count)
            for row in 0..<rows
            where !valid[row] || (channel == .gyroMagnitude && !gyroValid[row])
                || (channel.needsGravity && !signals.hasGravityReference)
            {
                for offset in 0..<perChannel { output[row * stride + column + offset] = .nan }
            }
            let nativeRate = channel == .gyroMagnitude ? signals.gyroRateHz : signals.accelerationRateHz
            if nativeRate < parameters.minimumSpectralRateHz {
                for row in 0..<rows {
                    for offset in (ChannelStatistics.count - 1)..<perChannel { output[row * stride + column + offset] = .nan }
                }
            }
        }
        let imuColumns = channels.count * perChannel
        for (row, window) in windows.enumerated() {
            for column in 0..<imuColumns { values[window * stride + column] = output[row * stride + column] }
        }
    }

    /// The GPS features of each window from the fixes within `contextSeconds` around its middle
    /// (default: `gpsContextSeconds` of all `fixes`).
    private func computeGPS(_ fixes: [PositionFix], windows: [WindowInfo], contextSeconds: Double?, into values: inout [Double]) {
        guard fixes.count >= 2 else { return }
        let times = fixes.map { $0.time!.secondsSince1970 }
        let gps = GPSFeatures()
        let chords = gps.chords(fixes)
        let column = FeatureSchema.Channel.allCases.count * FeatureSchema.perChannelCount
        let half = (contextSeconds ?? gpsContextSeconds(times)) / 2
        for (index, window) in windows.enumerated() {
            let middle = (window.start.secondsSince1970 + window.end.secondsSince1970) / 2
            let lower = times.insertionIndex(of: middle - half)
            let upper = times.insertionIndex(of: middle + half + 1e-9)
            gps.compute(fixes: fixes[lower..<upper], chords: chords, into: &values, at: index * FeatureTable.columns + column)
        }
    }

    /// Windows with neither IMU nor GPS features (inside a recording pause) are left out.
    private func dropEmptyWindows(_ table: consuming FeatureTable) -> FeatureTable {
        let gpsColumn = FeatureSchema.Channel.allCases.count * FeatureSchema.perChannelCount
        let dynamicColumn = FeatureSchema.index(of: "acc_dyn_mean_mps2")! // present with or without gravity
        var table = table
        let kept = table.windows.indices.filter { index in
            let row = index * FeatureTable.columns
            return !table.values[row + dynamicColumn].isNaN || !table.values[row + gpsColumn].isNaN
        }
        table.retain(kept)
        return table
    }
}

/// Fix times in order, as an array or read from a track (`TrackFixes.Times`), cut into
/// segments indexed from 0: a track's are read where they lie, not copied.
protocol FixTimes: RandomAccessCollection<Double> where Index == Int {
    func segment(_ range: Range<Int>) -> Self
}

extension Array: FixTimes where Element == Double {
    func segment(_ range: Range<Int>) -> [Double] { range == indices ? self : Array(self[range]) }
}

extension TrackFixes.Times: FixTimes {}
