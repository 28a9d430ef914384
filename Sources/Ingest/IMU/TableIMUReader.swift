import MobilityCore

/// Streams a delimited IMU table described by a `ColumnMapping` (`.csv` or `.csv.gz`).
///
/// One row yields one sample per mapped stream. Rows with too few fields or non-numeric
/// values are dropped and counted (`malformed_row`, `not_a_number`, `invalid_time`); the file
/// is never loaded whole.
public struct TableIMUReader {
    public let path: String
    public let mapping: ColumnMapping
    /// Parses the rows on a second thread while the visitor takes them on this one
    /// (`ReadAhead`), in the same order with the same lines: for a caller with a core to
    /// spare (`Jobs.widthHere` > 1), not for one of several files read side by side.
    public var readsAhead = false

    public init(path: String, mapping: ColumnMapping) {
        self.path = path
        self.mapping = mapping
    }

    /// Reads every data row; returns the number of data rows seen.
    @discardableResult
    public func read(visitor: IMUVisitor) throws -> Int {
        guard readsAhead else { return try readRows(visitor: visitor) }
        return try ReadAhead.run(
            read: { queue in try readRows(visitor: IMUEventQueue(queue)) }, take: { (event: IMUEvent) in try event.replay(into: visitor) })
    }

    private func readRows(visitor: IMUVisitor) throws -> Int {
        var fields = CSVFields(delimiter: mapping.delimiter)
        var labels = LabelRunTracker()
        labels.names = mapping.labelNames
        var timeUnit = mapping.timeUnit
        var rows = 0
        var elapsedSeconds = 0.0 // the sum of the intervals so far, with dt=
        var checkedOffset = mapping.offsetGiven
        let needed = mapping.minimumFields
        try LineReader(path: path).forEachLine { whole, number in
            guard number > mapping.headerLines, !whole.isEmpty else { return true }
            // A `;` ending every row is a record terminator (WISDM writes `…,x,y,z;`), not part of the last field.
            let line =
                whole.last == UInt8(ascii: ";") && mapping.delimiter != UInt8(ascii: ";")
                ? UnsafeBufferPointer(rebasing: whole.dropLast()) : whole
            fields.split(line)
            guard fields.count >= needed else {
                visitor.rejectedRow(.malformedRow, line: number, sensor: mapping.streams.first?.sensor)
                return true
            }
            let time: Timestamp
            if let column = mapping.timeColumn {
                guard let parsed = parseTime(fields.bytes(column, in: line), unit: &timeUnit) else {
                    visitor.rejectedRow(.invalidTime, line: number, sensor: mapping.streams.first?.sensor)
                    return true
                }
                if timeUnit == .iso8601, !checkedOffset {
                    checkedOffset = true
                    if !ISO8601.hasOffset(fields.bytes(column, in: line)) { visitor.timeWithoutOffset(line: number) }
                }
                time = parsed
            } else if let column = mapping.intervalColumn {
                guard let interval = NumberParser.double(fields.bytes(column, in: line)), interval.isFinite, interval >= 0 else {
                    visitor.rejectedRow(.invalidTime, line: number, sensor: mapping.streams.first?.sensor)
                    return true
                }
                elapsedSeconds += interval * (mapping.timeUnit ?? .seconds).secondsPerUnit
                time = Timestamp(secondsSince1970: mapping.timeOffsetSeconds + elapsedSeconds)
            } else {
                time = Timestamp(secondsSince1970: mapping.timeOffsetSeconds + Double(rows) / (mapping.fixedRateHz ?? 1))
            }
            rows += 1
            for stream in mapping.streams {
                guard let x = fields.double(stream.columns[0], in: line),
                    let y = fields.double(stream.columns[1], in: line),
                    let z = fields.double(stream.columns[2], in: line)
                else {
                    visitor.rejectedRow(.notANumber, line: number, sensor: stream.sensor)
                    continue
                }
                let sample = IMUSample(time: time, x: x * stream.toSI, y: y * stream.toSI, z: z * stream.toSI)
                guard sample.x.isFinite, sample.y.isFinite, sample.z.isFinite else {
                    visitor.rejectedRow(.notANumber, line: number, sensor: stream.sensor)
                    continue
                }
                try visitor.sample(sample, sensor: stream.sensor, line: number)
            }
            if let column = mapping.labelColumn {
                labels.observe(fields.bytes(column, in: line), time: time, line: number, visitor: visitor)
            }
            return true
        }
        labels.finish(visitor: visitor)
        return rows
    }

    private func parseTime(_ bytes: UnsafeBufferPointer<UInt8>, unit: inout TimeUnit?) -> Timestamp? {
        let zone = Int(mapping.defaultUTCOffsetSeconds)
        if unit == .iso8601 {
            return ISO8601.parse(bytes, defaultOffsetSeconds: zone).map { $0.adding(seconds: mapping.timeOffsetSeconds) }
        }
        guard let value = NumberParser.double(bytes), value.isFinite else {
            guard unit == nil, let time = ISO8601.parse(bytes, defaultOffsetSeconds: zone) else { return nil }
            unit = .iso8601
            return time.adding(seconds: mapping.timeOffsetSeconds)
        }
        if unit == nil { unit = TimeUnit.guessed(fromValue: value) }
        if let clock = mapping.clock { return Timestamp(secondsSince1970: clock.absolute(value * unit!.secondsPerUnit)) }
        return Timestamp(secondsSince1970: value * unit!.secondsPerUnit + mapping.timeOffsetSeconds)
    }
}
