import Foundation

/// One attribute's name and value, as ranges of the scanner's buffer.
struct AttributeSpan {
    var name: Range<Int>
    var value: Range<Int>
}

/// The attributes of the start tag being reported, looked up by name without copying.
struct ScannedAttributes: GPXAttributeSource {
    let base: UnsafeMutablePointer<UInt8>
    let spans: UnsafeBufferPointer<AttributeSpan>
    unowned(unsafe) let decoder: GPXScanner

    func withValue<T>(of name: StaticString, _ body: (UnsafeBufferPointer<UInt8>) -> T?) -> T? {
        for span in spans
        where span.name.count == name.utf8CodeUnitCount
            && memcmp(base + span.name.lowerBound, name.utf8Start, span.name.count) == 0
        {
            let raw = UnsafeBufferPointer(start: base + span.value.lowerBound, count: span.value.count)
            guard memchr(raw.baseAddress!, 0x26, raw.count) != nil else { return body(raw) }
            return (try? decoder.decodeEntities(raw, at: span.value.lowerBound))?.withUnsafeBufferPointer(body)
        }
        return nil
    }
}
