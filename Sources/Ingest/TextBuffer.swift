/// A growable byte buffer with manual storage, freed with its owner.
struct TextBuffer {
    private var storage = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
    private var capacity = 256
    private var count = 0

    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: storage, count: count) }

    mutating func clear() { count = 0 }

    mutating func append(_ more: UnsafeBufferPointer<UInt8>) {
        if count + more.count > capacity {
            capacity = max(capacity * 2, count + more.count)
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            bigger.update(from: storage, count: count)
            storage.deallocate()
            storage = bigger
        }
        (storage + count).update(from: more.baseAddress!, count: more.count)
        count += more.count
    }

    func deallocate() { storage.deallocate() }
}
