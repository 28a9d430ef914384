import MobilityCore

/// The mode of a device at any instant, from layers of spans in priority order (for
/// example the IMU model's windows first, then GPS-speed rules): the first layer with a span
/// covering the instant decides, and within a layer the span whose middle is nearest (windows
/// overlap by half).
public struct ModeTimeline: Sendable {
    /// One layer: spans, or windows held compactly (`ModeWindows`).
    public enum Layer: Sendable {
        case spans([ModeSpan])
        case windows(ModeWindows)
    }

    private var layers: [Layer]

    /// A layer already in order of its spans' middles (a device's GPS windows) is kept as it
    /// is, not sorted into a copy (Swift's sort is stable, so the order is the same).
    public init(_ layers: [Layer]) {
        self.layers = layers.map { layer in
            switch layer {
            case .spans(let spans): Self.inOrder(spans).map(Layer.spans) ?? .spans(spans.sorted { $0.midSeconds < $1.midSeconds })
            case .windows(let windows): Self.inOrder(windows).map(Layer.windows) ?? .spans(windows.sorted { $0.midSeconds < $1.midSeconds })
            }
        }
    }

    public init(layers: [[ModeSpan]]) { self.init(layers.map(Layer.spans)) }

    private static func inOrder<Spans: RandomAccessCollection<ModeSpan>>(_ spans: Spans) -> Spans? where Spans.Index == Int {
        spans.indices.dropFirst().contains { spans[$0].midSeconds < spans[$0 - 1].midSeconds } ? nil : spans
    }

    public static let empty = ModeTimeline(layers: [])

    public func span(at seconds: Double) -> ModeSpan? {
        for layer in layers {
            let span =
                switch layer {
                case .spans(let spans): Self.nearestCovering(spans, seconds)
                case .windows(let windows): Self.nearestCovering(windows, seconds)
                }
            if let span { return span }
        }
        return nil
    }

    /// - Complexity: O(log n).
    static func nearestCovering<Spans: RandomAccessCollection<ModeSpan>>(_ spans: Spans, _ seconds: Double) -> ModeSpan?
    where Spans.Index == Int {
        guard !spans.isEmpty else { return nil }
        let low = spans.firstIndex(notBelow: seconds) { $0.midSeconds }
        // Of the spans either side of `seconds` that cover it, the one whose middle is nearer
        // (the earlier on a tie); two candidates, so no array is made per instant looked up.
        var nearest: Int?
        for index in (low - 1)...low where spans.indices.contains(index) {
            guard spans[index].startSeconds <= seconds && seconds <= spans[index].endSeconds else { continue }
            if let best = nearest, !(abs(spans[index].midSeconds - seconds) < abs(spans[best].midSeconds - seconds)) { continue }
            nearest = index
        }
        return nearest.map { spans[$0] }
    }
}
