import MobilityCore

/// The mode of a device at any instant, from layers of spans in priority order (for
/// example the IMU model's windows first, then GPS-speed rules): the first layer with a span
/// covering the instant decides, and within a layer the span whose middle is nearest (windows
/// overlap by half).
public struct ModeTimeline: Sendable {
    private var layers: [[ModeSpan]]

    public init(layers: [[ModeSpan]]) {
        self.layers = layers.map { $0.sorted { $0.midSeconds < $1.midSeconds } }
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
        let candidates = [low - 1, low].filter { spans.indices.contains($0) }
            .filter { spans[$0].startSeconds <= seconds && seconds <= spans[$0].endSeconds }
        return candidates.min { abs(spans[$0].midSeconds - seconds) < abs(spans[$1].midSeconds - seconds) }.map { spans[$0] }
    }
}
