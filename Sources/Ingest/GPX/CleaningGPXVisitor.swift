import MobilityCore

/// Cleans the fixes a GPX or PLT reader finds and streams the kept ones into a sink.
final class CleaningGPXVisitor: GPXVisitor {
    /// Not retained: the caller keeps the sink alive for the whole read.
    private unowned(unsafe) let sink: IngestSink
    private(set) var cleaner: FixCleaner
    private(set) var result: IngestResult
    private var segment: (track: Int, segment: Int)?

    init(sink: IngestSink, parameters: CleaningParameters, result: IngestResult) {
        self.sink = sink
        self.cleaner = FixCleaner(parameters: parameters)
        self.result = result
    }

    func trackPoint(_ fix: PositionFix, at position: FixPosition) throws {
        result.recordsRead += 1
        if let current = segment, current != (position.track, position.segment) { cleaner.endSegment() }
        segment = (position.track, position.segment)
        try cleaner.clean(fix, at: position, emit: keep)
    }

    private func keep(_ fix: PositionFix, _ position: FixPosition) throws {
        try sink.write(fix: fix, at: position)
        result.fixesKept += 1
        if let time = fix.time { result.extendSpan(time) }
    }

    func waypoint(_ waypoint: Waypoint, line: Int) throws {
        result.recordsRead += 1
        guard cleaner.acceptsPlace(waypoint.fix, line: line) else { return }
        try sink.write(waypoint: waypoint, line: line)
        result.waypointsKept += 1
    }

    func rejectedPoint(_ reason: DropReason, line: Int) {
        result.recordsRead += 1
        cleaner.recordDrop(reason, line: line)
    }

    func finish() -> IngestResult {
        cleaner.endSegment()
        var final = result
        final.dropped.merge(cleaner.dropped)
        return final
    }
}
