import MobilityCore

/// Receives what a `GPXReader` finds, in document order, as it streams.
public protocol GPXVisitor: AnyObject {
    func trackPoint(_ fix: PositionFix, at position: FixPosition) throws
    func waypoint(_ waypoint: Waypoint, line: Int) throws
    /// A point the reader could not turn into a fix (no or non-numeric `lat`/`lon`, bad time).
    func rejectedPoint(_ reason: DropReason, line: Int)
}
