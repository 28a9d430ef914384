import MobilityCore

/// Turns a per-row label column into runs, allocating a string only when the label changes.
struct LabelRunTracker {
    /// What the runs are: truth labels (`labelRun`) or the phone's own activities (`activityRun`).
    var isActivity = false
    /// Codes renamed before the run is reported (`ColumnMapping.labelNames`).
    var names: [String: String] = [:]
    private var current: [UInt8] = []
    private var name = ""
    private var start: Timestamp?
    private var end = Timestamp(secondsSince1970: 0)
    private var line = 0

    mutating func observe(_ bytes: UnsafeBufferPointer<UInt8>, time: Timestamp, line: Int, visitor: IMUVisitor) {
        if start != nil, bytes.elementsEqual(current) {
            end = time
            return
        }
        finish(visitor: visitor)
        current = Array(bytes)
        name = CSVFields.unquote(String(decoding: bytes, as: UTF8.self))
        name = names[name] ?? name
        start = time
        end = time
        self.line = line
    }

    mutating func finish(visitor: IMUVisitor) {
        if let start, !name.isEmpty {
            if isActivity {
                visitor.activityRun(name, start: start, end: end, line: line)
            } else {
                visitor.labelRun(name, start: start, end: end, line: line)
            }
        }
        start = nil
    }
}
