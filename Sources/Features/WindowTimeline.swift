import MobilityCore

/// What smoothing and the GPS leg decision read of windows, in the order of their rows: each
/// window's trace, device and time span. `[WindowInfo]` is one; `TraceWindows` holds one
/// trace's windows by their times alone.
public protocol WindowTimeline {
    var count: Int { get }
    func trace(at index: Int) -> String
    func device(at index: Int) -> String
    func start(at index: Int) -> Timestamp
    func end(at index: Int) -> Timestamp
}

extension Array: WindowTimeline where Element == WindowInfo {
    public func trace(at index: Int) -> String { self[index].trace }
    public func device(at index: Int) -> String { self[index].device }
    public func start(at index: Int) -> Timestamp { self[index].start }
    public func end(at index: Int) -> Timestamp { self[index].end }
}

/// The windows of one trace (a device's track) by their start and end alone: 16 bytes a window,
/// where a `WindowInfo` takes 72 (two names and a label); 8 when every window lasts the
/// length it is given (the GPS windows do), its end then made from its start. A device's year
/// at 1 Hz on the move has 12 million windows; as `WindowInfo`s they held 900 MB.
public struct TraceWindows: WindowTimeline, Sendable {
    public let trace: String
    public let device: String
    public private(set) var starts: [Timestamp] = []
    /// Every window's end, once one is not its start plus `lengthSeconds` (or none is given).
    private var ends: [Timestamp] = []
    private var holdsEnds: Bool
    /// How long the windows usually last, seconds (0 when none was given: every end is held).
    public let lengthSeconds: Double

    /// `lengthSeconds`: how long the windows usually last; a window that does not is kept
    /// exactly too (then every end is held).
    public init(trace: String, device: String, lengthSeconds: Double? = nil) {
        (self.trace, self.device) = (trace, device)
        (self.lengthSeconds, holdsEnds) = (lengthSeconds ?? 0, lengthSeconds == nil)
    }

    public var count: Int { starts.count }

    public mutating func reserveCapacity(_ count: Int) {
        starts.reserveCapacity(count)
        if holdsEnds { ends.reserveCapacity(count) }
    }

    /// Appends `windows`' spans; each must be of this trace and device (it is checked).
    public mutating func append(contentsOf windows: [WindowInfo]) {
        for window in windows {
            precondition(window.trace == trace && window.device == device, "a window of another trace")
            if !holdsEnds, window.end != window.start.adding(seconds: lengthSeconds) {
                ends = starts.map { $0.adding(seconds: lengthSeconds) }
                holdsEnds = true
            }
            starts.append(window.start)
            if holdsEnds { ends.append(window.end) }
        }
    }

    /// Every window's end, when they are held (not every window lasts the given length); nil otherwise.
    public var heldEnds: [Timestamp]? { holdsEnds ? ends : nil }

    public func trace(at index: Int) -> String { trace }
    public func device(at index: Int) -> String { device }
    public func start(at index: Int) -> Timestamp { starts[index] }
    public func end(at index: Int) -> Timestamp { holdsEnds ? ends[index] : starts[index].adding(seconds: lengthSeconds) }
}
