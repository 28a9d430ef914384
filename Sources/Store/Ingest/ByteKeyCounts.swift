/// Counts of the few distinct keys met row by row in a long scan (a window's mode, or its
/// decider and mode), each key one or two text columns' bytes as SQLite holds them: no
/// `String` per row. Rows come in runs of one key, so the last key matched is tried first.
struct ByteKeyCounts {
    private(set) var entries: [(first: [UInt8], second: [UInt8], count: Int)] = []
    private var last = 0

    mutating func add(_ first: UnsafeBufferPointer<UInt8>, _ second: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(start: nil, count: 0))
    {
        func matches(_ entry: (first: [UInt8], second: [UInt8], count: Int)) -> Bool {
            entry.first.sameBytes(as: first) && entry.second.sameBytes(as: second)
        }
        if last < entries.count, matches(entries[last]) {
            entries[last].count += 1
        } else if let found = entries.firstIndex(where: matches) {
            (last, entries[found].count) = (found, entries[found].count + 1)
        } else {
            (last, entries) = (entries.count, entries + [(Array(first), Array(second), 1)])
        }
    }
}
