/// A stretch of time a classifier gave one mode (a window, or a run of windows).
public struct ModeSpan: Hashable, Sendable {
    public var startSeconds: Double
    public var endSeconds: Double
    public var mode: Mode
    /// Who decided it, carried through to the legs.
    public var source: Decider

    public init(startSeconds: Double, endSeconds: Double, mode: Mode, source: Decider) {
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
        self.mode = mode
        self.source = source
    }

    public var midSeconds: Double { (startSeconds + endSeconds) / 2 }
}
