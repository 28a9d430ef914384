import MobilityCore

/// The mode of a device at any instant, from layers of spans in priority order (for
/// example the IMU model's windows first, then GPS-speed rules): the first layer with a span
/// covering the instant decides, and within a layer the span whose middle is nearest (windows
/// overlap by half).
public struct ModeTimeline: Sendable {
    private var layers: [[ModeSpan]]

    /// A layer already in order of its spans' middles (a device's GPS windows) is kept as it
    /// is, not sorted into a copy (24 bytes a window; Swift's sort is stable, so the order is
    /// the same).
    public init(layers: [[ModeSpan]]) {
        self.layers = layers.map { layer in
            layer.indices.dropFirst().contains { layer[$0].midSeconds < layer[$0 - 1].midSeconds }
                ? layer.sorted { $0.midSeconds < $1.midSeconds } : layer
        }
    }

    public static let empty = ModeTimeline(layers: [])

    public func span(at seconds: Double) -> ModeSpan? {
        for layer in layers {
            if let span = Self.nearestCovering(layer, seconds) { return span }
        }
        return nil
    }

    /// - Complexity: O(log n).
    static func nearestCovering(_ spans: [ModeSpan], _ seconds: Double) -> ModeSpan? {
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
