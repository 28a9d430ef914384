import Comfort
import Features
import Foundation
import MobilityCore
import Store

/// The acceleration the comfort stage may measure, kept from ingest's read of each IMU
/// recording (`pipeline run`), so the comfort stage does not parse the file again.
///
/// Only what a ride can need is kept: around each check-in of the recording's device known
/// when the recording is read, the times its ride is looked for in (`RideWindow.searched`), or
/// the whole recording when recordings are
/// measured as rides. The samples go to a file of their own in the run's temporary folder, as
/// binary doubles (time, x, y, z), so memory stays one recording's. A ride whose window is not
/// wholly inside what was kept of a file, or a file not read this run, is read from the file
/// as before (`RideMeasurement`); both ways give the same samples (`RideAcceleration.of`).
final class KeptRideSamples: @unchecked Sendable {
    let folder: String
    /// Longest ride searched for after a check-in, seconds (`ComfortRun.maxRideSeconds`).
    let maxRideSeconds: Double
    /// Every recording is kept whole (comfort measures recordings as rides).
    let wholeRecordings: Bool
    /// The check-in times of a device, Unix seconds.
    let checkInTimes: @Sendable (String) throws -> [Double]
    private let lock = NSLock()
    private var kept: [String: Kept] = [:]
    /// Reads `acceleration` answered, and those it left to the file.
    private(set) var served = 0, missed = 0

    /// What was kept of one file: its content, the time ranges, and how many samples of each
    /// stream its file holds.
    struct Kept {
        var contentSHA256: String
        var ranges: [ClosedRange<Double>]
        var file: String
        var withGravity: Int
        /// Nil when the recording's basis is not gravity-free acceleration.
        var linear: Int?
    }

    init(folder: String, maxRideSeconds: Double, wholeRecordings: Bool, checkInTimes: @escaping @Sendable (String) throws -> [Double]) {
        (self.folder, self.maxRideSeconds, self.wholeRecordings, self.checkInTimes) = (
            folder, maxRideSeconds, wholeRecordings, checkInTimes
        )
    }

    /// Keeps what a ride may need of `recording`, read from `path` with content `contentSHA256`
    /// (`IngestRun.onRecording`).
    /// Nothing is kept when no check-in of its device is known yet and recordings are not rides;
    /// a file that cannot be written is simply not kept (the comfort stage reads the recording).
    func keep(path: String, contentSHA256: String, recording: Recording) {
        let ranges: [ClosedRange<Double>]
        if wholeRecordings {
            ranges = [-Double.infinity...Double.infinity]
        } else {
            guard let times = try? checkInTimes(recording.device), !times.isEmpty else { return }
            ranges = Self.merged(times.map { RideWindow.searched(checkinSeconds: $0, maxRideSeconds: maxRideSeconds) })
        }
        let inside = Self.membership(ranges)
        let withGravity = RideAcceleration.accelerationWithGravity(recording).filter { inside($0.time.secondsSince1970) }
        let linear = RideAcceleration.linearStream(recording)?.filter { inside($0.time.secondsSince1970) }
        let file = (folder as NSString).appendingPathComponent(UUID().uuidString + ".f64")
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: file, contents: nil), let handle = FileHandle(forWritingAtPath: file) else {
                return
            }
            defer { try? handle.close() }
            for stream in [withGravity, linear ?? []] {
                for start in stride(from: 0, to: stream.count, by: 65_536) { // written in pieces: memory stays the recording's
                    var values: [Double] = []
                    values.reserveCapacity(4 * 65_536)
                    for sample in stream[start..<min(stream.count, start + 65_536)] {
                        values.append(sample.time.secondsSince1970)
                        values.append(sample.x)
                        values.append(sample.y)
                        values.append(sample.z)
                    }
                    try values.withUnsafeBytes { try handle.write(contentsOf: Data($0)) }
                }
            }
        } catch {
            try? FileManager.default.removeItem(atPath: file)
            return
        }
        lock.withLock {
            kept[path] = Kept(
                contentSHA256: contentSHA256, ranges: ranges, file: file, withGravity: withGravity.count, linear: linear?.count)
        }
    }

    /// The acceleration of `file` inside [start, end], as `RideAcceleration.of` gives it from the
    /// recording; nil when that content was not kept or the window is not wholly inside what was.
    func acceleration(of file: PipelineStore.IMUFile, from start: Double, to end: Double) -> RideAcceleration? {
        guard let kept = lock.withLock({ self.kept[file.path] }), kept.contentSHA256 == file.contentSHA256,
            kept.ranges.contains(where: { $0.contains(start) && $0.contains(end) }),
            let data = try? Data(contentsOf: URL(fileURLWithPath: kept.file), options: .alwaysMapped)
        else {
            lock.withLock { missed += 1 }
            return nil
        }
        lock.withLock { served += 1 }
        return data.withUnsafeBytes { bytes in
            let values = bytes.bindMemory(to: Double.self)
            // Only the samples inside the window are made (the filter `of` applies again changes nothing).
            func samples(_ range: Range<Int>) -> [IMUSample] {
                range.compactMap { index in
                    let time = values[4 * index]
                    guard time >= start && time <= end else { return nil }
                    return IMUSample(
                        time: Timestamp(secondsSince1970: time), x: values[4 * index + 1], y: values[4 * index + 2],
                        z: values[4 * index + 3])
                }
            }
            let linear = kept.linear.map { samples(kept.withGravity..<(kept.withGravity + $0)) }
            return RideAcceleration.of(withGravity: samples(0..<kept.withGravity), linear: linear, from: start, to: end)
        }
    }

    /// Whether a time lies in one of `ranges` (ordered, not overlapping), by bisection.
    static func membership(_ ranges: [ClosedRange<Double>]) -> (Double) -> Bool {
        let lows = ranges.map(\.lowerBound)
        return { time in
            var low = 0, high = lows.count // the first range starting after `time`
            while low < high {
                let middle = (low + high) / 2
                if lows[middle] <= time { low = middle + 1 } else { high = middle }
            }
            return low > 0 && ranges[low - 1].contains(time)
        }
    }

    /// What the comfort stage says of it.
    var line: String {
        lock.withLock {
            "comfort: \(served) of the \(served + missed) recordings rides needed were measured from what ingest kept as it read them, "
                + "\(missed) read again (not read this run, or a ride outside what was kept)"
        }
    }

    /// Removes what was kept (when the run no longer needs it).
    func discard() {
        lock.withLock { kept = [:] }
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Overlapping ranges joined, in order.
    static func merged(_ ranges: [ClosedRange<Double>]) -> [ClosedRange<Double>] {
        var joined: [ClosedRange<Double>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = joined.last, range.lowerBound <= last.upperBound {
                joined[joined.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                joined.append(range)
            }
        }
        return joined
    }
}
