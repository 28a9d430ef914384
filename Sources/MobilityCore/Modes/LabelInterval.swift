/// A time interval during which a device was known (labelled) to be in one mode.
public struct LabelInterval: Hashable, Sendable {
    public var device: String?
    public var start: Timestamp
    public var end: Timestamp
    /// The name as written in the source (`Walking`, `taxi`, `SEATED`).
    public var rawName: String
    /// The product mode `rawName` maps to, or nil when the name is unknown.
    public var mode: Mode?
    /// Where the label came from: `labels_file`, `sample_column`, `manifest`, `name_pattern`.
    public var source: String

    public init(device: String?, start: Timestamp, end: Timestamp, rawName: String, source: String) {
        self.device = device
        self.start = start
        self.end = end
        self.rawName = rawName
        self.mode = Mode(labelName: rawName)
        self.source = source
    }
}
