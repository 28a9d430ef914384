import MobilityCore

/// Summarises the IMU streams a reader finds (per-sensor counts, span, duplicates), drops
/// samples whose time goes backwards within their stream, collects label runs, and cleans
/// and streams any GPS fixes recorded beside them.
final class IMUTally: IMUTallyVisitor {
    private let sink: IngestSink
    private var cleaner: FixCleaner
    /// One summary per sensor, indexed by `IMUSensor.ordinal` (this runs for every sample; a
    /// dictionary lookup and write-back per sample cost a fifth of a device-day's read time).
    private var streams: [IMUStreamSummary] = IMUSensor.allCases.map { IMUStreamSummary(sensor: $0) }
    private var timings = [StreamTiming](repeating: StreamTiming(), count: IMUSensor.allCases.count)
    private var result: IngestResult
    private var labelDevice: String?
    private let plausibleSeconds: ClosedRange<Double>

    init(sink: IngestSink, parameters: CleaningParameters, result: IngestResult) {
        self.sink = sink
        self.cleaner = FixCleaner(parameters: parameters)
        self.plausibleSeconds = parameters.plausibleSeconds() ?? -Double.infinity...Double.infinity
        self.result = result
        self.labelDevice = result.device
    }

    func sample(_ sample: IMUSample, sensor: IMUSensor, line: Int) throws {
        let index = sensor.ordinal
        // Judged first, so one stray date never becomes the `last` its neighbours are compared to.
        guard plausibleSeconds.contains(sample.time.secondsSince1970) else {
            return rejectedRow(.implausibleTime, line: line, sensor: sensor)
        }
        timings[index].add(seconds: sample.time.secondsSince1970, x: sample.x, y: sample.y, z: sample.z)
        if let last = streams[index].last {
            if sample.time < last { return rejectedRow(.timeBackwards, line: line, sensor: sensor) }
            if sample.time == last { streams[index].duplicateTimes += 1 }
        } else {
            streams[index].first = sample.time
        }
        streams[index].last = sample.time
        streams[index].samples += 1
        try sink.write(sample: sample, sensor: sensor)
    }

    func otherSensor(_ name: String, line: Int) {
        result.otherSensors[name, default: 0] += 1
    }

    func labelRun(_ name: String, start: Timestamp, end: Timestamp, line: Int) {
        var (start, end) = (start, end)
        // A run that reaches a sample dropped as implausible_time ends (or starts) at the kept samples.
        if !plausibleSeconds.contains(end.secondsSince1970) {
            guard let last = streams.compactMap(\.last).max() else { return }
            end = last
        }
        if !plausibleSeconds.contains(start.secondsSince1970) {
            guard let first = streams.compactMap(\.first).min() else { return }
            start = first
        }
        guard start <= end else { return }
        result.labels.append(LabelInterval(device: labelDevice, start: start, end: end, rawName: name, source: "sample_column"))
    }

    func activityRun(_ name: String, start: Timestamp, end: Timestamp, line: Int) {
        guard plausibleSeconds.contains(start.secondsSince1970), plausibleSeconds.contains(end.secondsSince1970), start <= end else {
            return
        }
        result.activities.append(LabelInterval(device: labelDevice, start: start, end: end, rawName: name, source: "activity_recognition"))
    }

    func fix(_ fix: PositionFix, line: Int) throws {
        result.recordsRead += 1
        try cleaner.clean(fix, at: FixPosition(track: 0, segment: 0, line: line)) { kept, position in
            try sink.write(fix: kept, at: position)
            result.fixesKept += 1
            if let time = kept.time { result.extendSpan(time) }
        }
    }

    func timeWithoutOffset(line: Int) {
        result.timeWithoutOffsetLine = result.timeWithoutOffsetLine ?? line
    }

    func rejectedRow(_ reason: DropReason, line: Int, sensor: IMUSensor?) {
        result.dropped.record(reason, line: line)
        if let sensor { streams[sensor.ordinal].droppedSamples += 1 }
    }

    func addRows(_ count: Int) {
        result.recordsRead += count
    }

    func addOtherSensor(_ name: String, rows: Int) {
        result.otherSensors[name, default: 0] += rows
        result.recordsRead += rows
    }

    func finish() -> IngestResult {
        cleaner.endSegment()
        var final = result
        final.dropped.merge(cleaner.dropped)
        for index in streams.indices { streams[index].record(timings[index]) }
        final.imuStreams = streams.filter { $0.samples > 0 || $0.droppedSamples > 0 }
        for stream in final.imuStreams {
            if let first = stream.first { final.extendSpan(first) }
            if let last = stream.last { final.extendSpan(last) }
        }
        return final
    }
}
