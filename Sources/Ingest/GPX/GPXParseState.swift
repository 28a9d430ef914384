import MobilityCore

/// Where a GPX parser reads an element's attributes: a value's bytes by attribute name,
/// lent to `body` only.
protocol GPXAttributeSource {
    func withValue<T>(of name: StaticString, _ body: (UnsafeBufferPointer<UInt8>) -> T?) -> T?
}

extension GPXAttributeSource {
    func string(_ name: StaticString) -> String? { withValue(of: name) { String(decoding: $0, as: UTF8.self) } }
    func double(_ name: StaticString) -> Double? { withValue(of: name) { NumberParser.double($0) } }
}

/// What `GPXParseState` asks of the XML parser that feeds it.
protocol GPXParserControl: AnyObject {
    /// The current line and column (1-based), for fix lines and errors.
    func location() -> (line: Int, column: Int)
    /// Stop after the current callback.
    func stop()
}

/// What GPX means, independent of the XML parser that feeds it: both `GPXScanner` and the
/// expat path call `start`, `characters` and `end`, and this turns them into points.
final class GPXParseState {
    let path: String
    unowned(unsafe) let visitor: GPXVisitor
    /// The XML front end feeding this state. Not retained: the front end owns this state and
    /// outlives every call (closures here cost a context retain per point in the profile).
    unowned(unsafe) var parser: GPXParserControl?
    var summary = GPXSummary()
    var error: InputError? {
        didSet { failed = error != nil }
    }
    /// `error != nil`, kept as a plain flag for the parser's per-token check.
    private(set) var failed = false
    var sawRoot = false

    private var stack = ManualBuffer<GPXElement>()
    private var track = -1, segment = -1, route = -1
    /// The point being read; meaningful only while `inPoint` (kept non-optional so that
    /// setting one of its values does not copy it).
    private var point = PointInProgress(element: .other, line: 0)
    private var inPoint = false
    var capturing = false
    /// The text of the element being captured, in a buffer this object owns (an array here
    /// cost a retain and release per value in the profile).
    private var text = ManualBuffer<UInt8>(capacity: 256)

    init(path: String, visitor: GPXVisitor) {
        self.path = path
        self.visitor = visitor
    }

    deinit {
        text.deallocate()
        stack.deallocate()
    }

    private var line: Int { parser?.location().line ?? 0 }

    func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
        if capturing { text.append(contentsOf: bytes) }
    }

    func start(_ element: GPXElement, attributes: some GPXAttributeSource) {
        guard !failed else { return }
        if stack.isEmpty {
            guard element == .gpx else { return fail(.notGPX, "the root element is not <gpx>; expected a GPX document") }
            sawRoot = true
            summary.version = attributes.string("version")
            summary.creator = attributes.string("creator")
        }
        switch element {
        case .trk: summary.tracks += 1; track += 1; segment = -1
        case .trkseg: summary.segments += 1; segment += 1
        case .rte: summary.routes += 1; route += 1
        case .trkpt, .rtept, .wpt: beginPoint(element, attributes)
        default: break
        }
        capturing = element.hasValue && wantsValue(element)
        if capturing { text.removeAll() }
        stack.append(element)
    }

    func end() {
        guard !failed, !stack.isEmpty else { return }
        let element = stack.removeLast()
        if capturing {
            capturing = false
            assignValue(element)
        }
        if element == .trkpt || element == .rtept || element == .wpt, inPoint {
            emitPoint()
        }
    }

    private func wantsValue(_ element: GPXElement) -> Bool {
        if inPoint {
            // Core GPX values count only as direct children of the point, so an extension's
            // <gh:time>31151</gh:time> is not taken for the fix time; sensor extensions
            // (hr, cad, speed, course) count at any depth inside the point.
            switch element {
            case .time, .ele, .hdop, .pdop, .name: return stack.last == point.element
            default: return true
            }
        }
        let parent = stack.last
        if element == .author { return parent == .gpx } // GPX 1.0
        return element == .name && parent == .author && stack.secondLast == .metadata
    }

    private func beginPoint(_ element: GPXElement, _ attributes: some GPXAttributeSource) {
        point = PointInProgress(element: element, line: line)
        point.latitude = attributes.double("lat")
        point.longitude = attributes.double("lon")
        switch element {
        case .trkpt:
            summary.trackPoints += 1
            if segment < 0 { segment = 0 } // a <trkpt> outside any <trkseg>: tolerated
            if track < 0 { track = 0 }
        case .rtept: summary.routePoints += 1
        default: summary.waypoints += 1
        }
        inPoint = true
    }

    private func assignValue(_ element: GPXElement) {
        var value: Double? { NumberParser.double(text.elements) }
        switch element {
        case .ele: point.fix.elevationMeters = value
        case .hdop: point.fix.hdop = value
        case .pdop: point.fix.pdop = value
        case .speed: point.fix.speedMetersPerSecond = value
        case .course: point.fix.courseDegrees = value
        case .heartRate: point.fix.heartRateBpm = value
        case .cadence: point.fix.cadenceRpm = value
        case .time:
            let time = ISO8601.parse(text.elements)
            if time == nil { point.badTime = true }
            point.fix.time = time
        case .name, .author:
            let name = String(decoding: text.elements, as: UTF8.self).trimmingWhitespace()
            if inPoint { point.name = name } else if !name.isEmpty { summary.authorName = name }
        default: break
        }
    }

    private func emitPoint() {
        guard inPoint else { return }
        inPoint = false
        guard let latitude = point.latitude, let longitude = point.longitude else {
            return visitor.rejectedPoint(.malformedRow, line: point.line)
        }
        guard !point.badTime else { return visitor.rejectedPoint(.invalidTime, line: point.line) }
        point.fix.latitudeDegrees = latitude
        point.fix.longitudeDegrees = longitude
        do {
            switch point.element {
            case .trkpt:
                if point.fix.time == nil { summary.pointsWithoutTime += 1 }
                try visitor.trackPoint(point.fix, at: FixPosition(track: track, segment: segment, line: point.line))
            case .rtept:
                try visitor.waypoint(Waypoint(kind: .routePoint, route: route, name: point.name, fix: point.fix), line: point.line)
            default:
                try visitor.waypoint(Waypoint(kind: .waypoint, route: nil, name: point.name, fix: point.fix), line: point.line)
            }
        } catch let failure as InputError {
            stop(failure)
        } catch {
            stop(InputError(.unreadable, "\(error)", path: path, line: point.line))
        }
    }

    // MARK: Blocks (`GPXBlocks`)

    /// Supposes the state of a block that starts at a `<trkpt>` inside `<gpx><trk><trkseg>`:
    /// the track and segment are counted from 0, routes from -1, each relative to the true
    /// ones there (`GPXBlockEnd.Counters`).
    func beginInsideSegment() {
        sawRoot = true
        for element in [GPXElement.gpx, .trk, .trkseg] { stack.append(element) }
        (track, segment, route) = (0, 0, -1)
    }

    /// No point and no value being read.
    var isBetweenTokens: Bool { !inPoint && !capturing }

    /// Between two points of a segment, as a block that starts here supposes.
    var isBetweenPoints: Bool {
        !failed && isBetweenTokens && sawRoot && Array(stack.elements) == [.gpx, .trk, .trkseg] && track >= 0 && segment >= 0
    }

    var openElements: (elements: [GPXElement], counters: GPXBlockEnd.Counters) { (Array(stack.elements), counters) }

    /// The track, segment and route being read.
    private var counters: GPXBlockEnd.Counters { GPXBlockEnd.Counters(track: track, segment: segment, route: route) }

    /// Hands a block's points to the visitor as if they had been read here, their tracks,
    /// segments, routes and lines moved from the block's counting to this one's, and stops at
    /// the visitor's first error as `emitPoint` does.
    func replay(_ events: [GPXBlockEvent], line: Int) throws {
        let (here, lines) = (counters, line - 1)
        for event in events {
            var failedLine = 0
            do {
                switch event {
                case .trackPoint(let fix, var position):
                    failedLine = position.line + lines
                    (position.track, position.segment) = here.absolute(track: position.track, segment: position.segment)
                    position.line = failedLine
                    try visitor.trackPoint(fix, at: position)
                case .waypoint(var waypoint, let pointLine):
                    failedLine = pointLine + lines
                    waypoint.route = waypoint.route.map(here.absolute(route:))
                    try visitor.waypoint(waypoint, line: failedLine)
                case .rejected(let reason, let pointLine):
                    visitor.rejectedPoint(reason, line: pointLine + lines)
                }
            } catch let failure as InputError {
                error = failure
                throw failure
            } catch {
                let failure = InputError(.unreadable, "\(error)", path: path, line: failedLine)
                self.error = failure
                throw failure
            }
        }
    }

    /// Takes over a block's end after its points were replayed.
    func adopt(_ end: GPXBlockEnd) {
        stack.removeAll()
        for element in end.elements { stack.append(element) }
        let here = counters
        (track, segment) = here.absolute(track: end.counters.track, segment: end.counters.segment)
        route = here.absolute(route: end.counters.route)
        summary.add(end.summary)
    }

    private func fail(_ code: InputError.Code, _ message: String) {
        let (line, column) = parser?.location() ?? (0, 0)
        stop(InputError(code, message, path: path, line: line, column: column))
    }

    private func stop(_ failure: InputError) {
        error = failure
        parser?.stop()
    }
}

/// A point whose closing tag has not been read yet.
struct PointInProgress {
    let element: GPXElement
    let line: Int
    var latitude: Double?
    var longitude: Double?
    var name: String?
    var badTime = false
    var fix = PositionFix(time: nil, latitudeDegrees: .nan, longitudeDegrees: .nan)

    init(element: GPXElement, line: Int) {
        self.element = element
        self.line = line
    }
}
