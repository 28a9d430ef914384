/// What an end tag's name is compared with: the name's length and its first and last eight
/// bytes (two loads, no loop). Two names of one length that differ only between their 8th
/// and their 8th-from-last byte compare equal, so such a mismatched pair of tags in names of
/// 17 or more bytes goes unnoticed; GPX's own names are all shorter.
struct NameKey: Equatable {
    let length: Int
    let head: UInt64
    let tail: UInt64

    init(_ name: UnsafeBufferPointer<UInt8>) {
        length = name.count
        let raw = UnsafeRawPointer(name.baseAddress!)
        if name.count >= 8 {
            head = raw.loadUnaligned(as: UInt64.self)
            tail = raw.loadUnaligned(fromByteOffset: name.count - 8, as: UInt64.self)
        } else {
            var value: UInt64 = 0
            for index in 0..<name.count { value = value << 8 | UInt64(name[index]) }
            head = value
            tail = 0
        }
    }
}
