/// The one binary search over data kept in time order (fixes, samples, windows, spans).
extension RandomAccessCollection where Index == Int {
    /// In a collection ordered by `key`, the first index whose key is not below `value`
    /// (`endIndex` when every key is below it). O(log n). Inlinable, so another module's call is
    /// specialised for its collection and key rather than run through generic metadata.
    @inlinable
    public func firstIndex(notBelow value: Double, by key: (Element) -> Double) -> Int {
        var low = startIndex, high = endIndex
        while low < high {
            let middle = (low + high) / 2
            if key(self[middle]) < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

extension Array where Element == Double {
    /// In an ascending array, the first index whose value is not below `value` (`count` when
    /// every value is below it).
    @inlinable
    public func insertionIndex(of value: Double) -> Int { firstIndex(notBelow: value) { $0 } }
}
