import MobilityCore

/// A layer of a `ModeTimeline` held as windows: their starts, a mode and a decider each, and
/// their ends made from one length (10 bytes a window; as `ModeSpan`s, 24). A device's GPS
/// windows are one every 2.5 s of movement: 640,000 for 1.6 M fixes at 1 Hz, 12 M for a
/// year, whose spans alone were 300 MB.
///
/// Read as a collection of `ModeSpan`s, each made when it is read, so a timeline looks a
/// window up exactly as it looked up the span it stands for.
public struct ModeWindows: RandomAccessCollection, Sendable {
    public let starts: [Timestamp]
    /// Each window's end, when not every window lasts `lengthSeconds` (nil: its start plus it).
    public let ends: [Timestamp]?
    public let lengthSeconds: Double
    public let modes: [Mode]
    public let sources: [Decider]

    /// The arrays are kept as they are given (a device's window starts are not copied).
    public init(starts: [Timestamp], ends: [Timestamp]? = nil, lengthSeconds: Double, modes: [Mode], sources: [Decider]) {
        precondition(
            modes.count == starts.count && sources.count == starts.count && (ends?.count ?? starts.count) == starts.count,
            "a mode, a decider (and an end) for each window")
        (self.starts, self.ends, self.lengthSeconds, self.modes, self.sources) = (starts, ends, lengthSeconds, modes, sources)
    }

    public static let empty = ModeWindows(starts: [], lengthSeconds: 0, modes: [], sources: [])

    public var startIndex: Int { 0 }
    public var endIndex: Int { starts.count }

    public subscript(index: Int) -> ModeSpan {
        ModeSpan(
            startSeconds: starts[index].secondsSince1970,
            endSeconds: (ends?[index] ?? starts[index].adding(seconds: lengthSeconds)).secondsSince1970,
            mode: modes[index], source: sources[index])
    }
}
