/// A growable array of trivial values in storage its owner frees (`deallocate()` in the
/// owner's `deinit`). Used in the GPX hot path, where `Array`'s copy-on-write checks and
/// reference counting showed up as a sixth of the time in profiles.
struct ManualBuffer<Element> {
    private var storage: UnsafeMutablePointer<Element>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 16) {
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
    }

    var isEmpty: Bool { count == 0 }
    var last: Element? { count > 0 ? storage[count - 1] : nil }
    /// The element below the last one.
    var secondLast: Element? { count > 1 ? storage[count - 2] : nil }
    var elements: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: storage, count: count) }

    mutating func append(_ element: Element) {
        reserve(count + 1)
        (storage + count).initialize(to: element)
        count += 1
    }

    mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        guard let source = elements.baseAddress else { return }
        reserve(count + elements.count)
        (storage + count).initialize(from: source, count: elements.count)
        count += elements.count
    }

    /// Grows the storage (at least doubling it) so it holds `minimumCapacity` elements.
    private mutating func reserve(_ minimumCapacity: Int) {
        guard minimumCapacity > capacity else { return }
        let newCapacity = max(capacity * 2, minimumCapacity)
        let bigger = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        bigger.moveInitialize(from: storage, count: count)
        storage.deallocate()
        storage = bigger
        capacity = newCapacity
    }

    @discardableResult
    mutating func removeLast() -> Element {
        precondition(count > 0, "removeLast on an empty buffer")
        count -= 1
        return (storage + count).move()
    }

    mutating func removeAll() {
        storage.deinitialize(count: count)
        count = 0
    }

    func deallocate() {
        storage.deinitialize(count: count)
        storage.deallocate()
    }
}
