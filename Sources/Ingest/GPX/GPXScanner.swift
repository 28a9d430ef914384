import Foundation

/// A hand-written streaming XML scanner for UTF-8 GPX, the fast path of `GPXReader`.
///
/// Written here rather than using libexpat alone because GPX parsing is the product's hottest
/// path and expat, through Swift callbacks, ran at 80–90 MB/s on this machine while this
/// scanner, which finds tag boundaries with byte-class tests, builds no strings for names and
/// parses only what GPX needs, runs at 450–480 MB/s (see `scripts/bench/bench.sh`). It checks what a GPX reader
/// relies on: tags balance and match, attributes are quoted, entity references are known,
/// nothing but comments follows the root. It hands everything else to expat: a document that
/// declares another encoding than UTF-8/ASCII, starts with a UTF-16 byte-order mark, has a
/// DOCTYPE with an internal subset or a non-ASCII root name is re-read by expat from the start
/// (this is decided before the first point is reported, so nothing is reported twice).
/// It never rejects a document expat reads, and reads it the same way (a test mutates real
/// files to check); it accepts a few that expat rejects, where the fault lies in bytes it
/// does not read: a malformed XML declaration, or a stray token or unknown entity in text
/// outside the values GPX uses (2 % of the mutated documents built from the real files).
///
/// - Complexity: O(n) in the file size; memory is one buffer, grown only to hold the longest
///   single token.
final class GPXScanner: GPXParserControl {
    /// Why the scanner handed the document to expat.
    struct NeedsFullParser: Error { let reason: String }

    private let source: ByteSource
    /// Longest single token (a tag, a text run) held in the buffer, bytes: 16 MiB. Real GPX
    /// tokens are bytes to kilobytes; past this the input is not GPX and memory must not grow with it.
    static let maxTokenBytes = 16 << 20
    private let state: GPXParseState
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes `[position, filled)` of `buffer` are not consumed yet.
    private var position = 0
    private var filled = 0
    private var atEnd = false
    /// Absolute offset of `buffer[0]` in the decoded stream.
    private var bufferOffset = 0
    private var lineTracker = LineTracker()
    private var tokenStart = 0
    /// Keys of the open elements' names (see `NameKey`), innermost last.
    private var stack = ManualBuffer<NameKey>()
    private var rootClosed = false
    private var attributes = ManualBuffer<AttributeSpan>()
    /// `scanToLimit` stops before the first token starting at or past this offset in the file.
    var limit = Int.max
    /// Where the last `scanToLimit` stopped (the offset of the token it left), nil at the end.
    private(set) var stoppedAt: Int?

    init(source: ByteSource, state: GPXParseState, chunkBytes: Int) {
        self.source = source
        self.state = state
        capacity = max(chunkBytes, 64)
        buffer = .allocate(capacity: capacity)
        state.parser = self
    }

    /// A scanner of the block of a file that starts at `offset`, where a `<trkpt` begins,
    /// supposed to lie inside `<gpx><trk><trkseg>` (`GPXBlocks` checks it later): `source` reads
    /// the block alone, lines count from 1 at `offset`, and `state` counts tracks, segments and
    /// routes from there (`GPXParseState.beginInsideSegment`).
    convenience init(blockOf source: ByteSource, at offset: Int, state: GPXParseState, chunkBytes: Int) {
        self.init(source: source, state: state, chunkBytes: chunkBytes)
        bufferOffset = offset
        lineTracker = LineTracker(at: offset)
        for name in Self.segmentNames { stack.append(name) }
        state.beginInsideSegment()
    }

    deinit {
        buffer.deallocate()
        stack.deallocate()
        attributes.deallocate()
    }

    /// Scans the whole document into `state`.
    func scan() throws {
        try begin()
        try scanToLimit()
        try finish()
    }

    /// Reads the first bytes and hands a document in another encoding to expat.
    func begin() throws {
        try refill()
        try checkProlog()
    }

    /// Scans tokens until the end of the input, or until the first token that starts at or
    /// past `limit` (an offset in the file), which it leaves unread: `stoppedAt` says where.
    func scanToLimit() throws {
        stoppedAt = nil
        while true {
            guard let lessThan = nextTagStart(from: position) else {
                // Text runs on past the buffer: read on, so a text node is always whole.
                if atEnd {
                    try text(upTo: filled)
                    position = filled
                    return
                }
                try refill()
                continue
            }
            try text(upTo: lessThan)
            position = lessThan
            tokenStart = lessThan
            if bufferOffset + lessThan >= limit {
                stoppedAt = bufferOffset + lessThan
                return
            }
            guard let end = try markup(at: lessThan) else {
                if atEnd { throw malformed("unclosed token") }
                try refill()
                continue
            }
            position = end + 1
            if state.failed, let error = state.error { throw error }
        }
    }

    // MARK: Buffer

    private func refill() throws {
        lineTracker.advance(buffer, to: position, bufferOffset: bufferOffset)
        if position > 0 {
            memmove(buffer, buffer + position, filled - position)
            filled -= position
            bufferOffset += position
            tokenStart -= position
            position = 0
        }
        if filled == capacity {
            guard capacity < Self.maxTokenBytes else {
                throw InputError(
                    .malformedXML,
                    "one XML token is longer than \(Self.maxTokenBytes >> 20) MiB; expected a GPX document "
                        + "(is this a binary file, or a file of zeros?)", path: source.path, line: lineTracker.line)
            }
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
            bigger.update(from: buffer, count: filled)
            buffer.deallocate()
            buffer = bigger
            capacity *= 2
        }
        let count = try source.read(into: UnsafeMutableRawBufferPointer(start: buffer + filled, count: capacity - filled))
        filled += count
        atEnd = count == 0
    }

    private func find(_ byte: UInt8, from start: Int) -> Int? {
        guard start < filled, let found = memchr(buffer + start, Int32(byte), filled - start) else { return nil }
        return UnsafeMutableRawPointer(found) - UnsafeMutableRawPointer(buffer)
    }

    /// The next `<`: a byte loop, since text between GPX tags is a few bytes long and a
    /// `memchr` call costs more than scanning them.
    private func nextTagStart(from start: Int) -> Int? {
        var index = start
        while index < filled {
            if buffer[index] == 0x3C { return index }
            index += 1
        }
        return nil
    }

    private func find(_ needle: StaticString, from start: Int) -> Int? {
        var index = start
        let first = needle.utf8Start.pointee
        while let candidate = find(first, from: index) {
            guard candidate + needle.utf8CodeUnitCount <= filled else { return nil }
            if memcmp(buffer + candidate, needle.utf8Start, needle.utf8CodeUnitCount) == 0 { return candidate }
            index = candidate + 1
        }
        return nil
    }

    private func starts(with prefix: StaticString, at index: Int) -> Bool {
        index + prefix.utf8CodeUnitCount <= filled && memcmp(buffer + index, prefix.utf8Start, prefix.utf8CodeUnitCount) == 0
    }

    // MARK: Tokens

    /// Reads the markup starting at `start` (a `<`) and returns the index of its closing `>`,
    /// or nil, with nothing reported, when the buffer ends before it does.
    private func markup(at start: Int) throws -> Int? {
        guard start + 1 < filled else { return nil }
        switch buffer[start + 1] {
        case 0x2F: return try endTag(at: start)
        case 0x21, 0x3F: // "<!" or "<?": rare
            guard let end = try declarationEnd(from: start) else { return nil }
            try declaration(from: start, to: end)
            return end
        default: return try startTag(at: start)
        }
    }

    /// The `>` that ends a comment, CDATA section, processing instruction or DOCTYPE.
    private func declarationEnd(from start: Int) throws -> Int? {
        if starts(with: "<!--", at: start) { return find("-->", from: start + 4).map { $0 + 2 } }
        if starts(with: "<![CDATA[", at: start) { return find("]]>", from: start + 9).map { $0 + 2 } }
        if starts(with: "<?", at: start) { return find("?>", from: start + 2).map { $0 + 1 } }
        var index = start + 2 // <!DOCTYPE …>: the next '>' outside quotes
        while index < filled {
            let byte = buffer[index]
            if byte == 0x3E { return index }
            if byte == 0x22 || byte == 0x27 {
                guard let close = find(byte, from: index + 1) else { return nil }
                index = close
            }
            index += 1
        }
        return nil
    }

    private func declaration(from start: Int, to end: Int) throws {
        if starts(with: "<![CDATA[", at: start) {
            guard !stack.isEmpty else { throw malformed("CDATA outside the root element") }
            state.characters(UnsafeBufferPointer(start: buffer + start + 9, count: end - 2 - (start + 9)))
        } else if !starts(with: "<!--", at: start), !starts(with: "<?", at: start) {
            guard stack.isEmpty, !state.sawRoot else { throw malformed("a declaration inside the document") }
            if find(0x5B, from: start).map({ $0 < end }) ?? false {
                throw NeedsFullParser(reason: "DOCTYPE with an internal subset")
            }
        }
    }

    /// Reads a start tag in one pass (name, attributes, `>` or `/>`), then reports it. Returns
    /// the index of its `>`, or nil when the buffer ends first. Fusing the search for `>` with
    /// the parse reads each tag byte once; this is the scanner's hottest function.
    private func startTag(at start: Int) throws -> Int? {
        if rootClosed { throw malformed("junk after document element") }
        let nameStart = start + 1
        var index = nameStart
        while index < filled {
            let byte = buffer[index]
            if isSpace(byte) || byte == 0x2F || byte == 0x3E { break }
            if byte == 0x3C || byte == 0x22 || byte == 0x27 || byte == 0x3D {
                throw malformed("not well-formed (invalid token)", at: index)
            }
            index += 1
        }
        guard index < filled else { return nil }
        let nameEnd = index
        guard nameEnd > nameStart, isNameStart(buffer[nameStart]) else {
            if nameEnd > nameStart, buffer[nameStart] >= 0x80, stack.isEmpty { throw NeedsFullParser(reason: "non-ASCII root name") }
            throw malformed("not well-formed (invalid token)", at: nameStart)
        }
        if stack.isEmpty, (nameStart..<nameEnd).contains(where: { buffer[$0] >= 0x80 }) {
            throw NeedsFullParser(reason: "non-ASCII root name")
        }
        guard let (end, selfClosing) = try attributeList(from: nameEnd) else { return nil }
        let name = UnsafeBufferPointer(start: buffer + nameStart, count: nameEnd - nameStart)
        stack.append(NameKey(name))
        state.start(GPXElement(qualifiedName: name), attributes: ScannedAttributes(base: buffer, spans: attributes.elements, decoder: self))
        if selfClosing { try closeElement() }
        return end
    }

    /// Reads `name="value"` pairs into `attributes` up to the tag's `>` (or `/>`); nil when
    /// the buffer ends first.
    private func attributeList(from start: Int) throws -> (end: Int, selfClosing: Bool)? {
        attributes.removeAll()
        var index = start
        while true {
            while index < filled, isSpace(buffer[index]) { index += 1 }
            guard index < filled else { return nil }
            switch buffer[index] {
            case 0x3E: return (index, false)
            case 0x2F:
                guard index + 1 < filled else { return nil }
                guard buffer[index + 1] == 0x3E else { throw malformed("not well-formed (invalid token)", at: index) }
                return (index + 1, true)
            default: break
            }
            let nameStart = index
            while index < filled, buffer[index] != 0x3D, !isSpace(buffer[index]), buffer[index] != 0x3E,
                buffer[index] != 0x3C, buffer[index] != 0x2F
            { index += 1 }
            let nameEnd = index
            while index < filled, isSpace(buffer[index]) { index += 1 }
            guard index < filled else { return nil }
            guard nameEnd > nameStart, isNameStart(buffer[nameStart]) || buffer[nameStart] >= 0x80, buffer[index] == 0x3D else {
                throw malformed("not well-formed (invalid token)", at: index)
            }
            index += 1
            while index < filled, isSpace(buffer[index]) { index += 1 }
            guard index < filled else { return nil }
            let quote = buffer[index]
            guard quote == 0x22 || quote == 0x27 else { throw malformed("an attribute value must be quoted", at: index) }
            guard let close = find(quote, from: index + 1) else { return nil }
            attributes.append(AttributeSpan(name: nameStart..<nameEnd, value: (index + 1)..<close))
            index = close + 1
        }
    }

    /// Reads `</name>` and matches it with the innermost open element; nil when the buffer
    /// ends first.
    private func endTag(at start: Int) throws -> Int? {
        let nameStart = start + 2
        var index = nameStart
        while index < filled, buffer[index] != 0x3E, !isSpace(buffer[index]) {
            if buffer[index] == 0x3C { throw malformed("not well-formed (invalid token)", at: index) }
            index += 1
        }
        let nameEnd = index
        while index < filled, isSpace(buffer[index]) { index += 1 }
        guard index < filled else { return nil }
        guard buffer[index] == 0x3E else { throw malformed("not well-formed (invalid token)", at: index) }
        let key = NameKey(UnsafeBufferPointer(start: buffer + nameStart, count: nameEnd - nameStart))
        guard let open = stack.last else { throw malformed("an end tag without a start tag", at: nameStart) }
        guard open == key else { throw malformed("mismatched tag", at: nameStart) }
        try closeElement()
        return index
    }

    private func closeElement() throws {
        stack.removeLast()
        state.end()
        if stack.isEmpty { rootClosed = true }
    }

    // MARK: Text

    private func text(upTo end: Int) throws {
        guard end > position else { return }
        let bytes = UnsafeBufferPointer(start: buffer + position, count: end - position)
        if stack.isEmpty {
            if bytes.contains(where: { !isSpace($0) }) {
                tokenStart = position
                throw malformed(rootClosed ? "junk after document element" : "text before the root element; expected <gpx>")
            }
            return
        }
        guard state.capturing else { return }
        if memchr(bytes.baseAddress!, 0x26, bytes.count) != nil {
            try decodeEntities(bytes, at: position).withUnsafeBufferPointer { state.characters($0) }
        } else {
            state.characters(bytes)
        }
    }

    /// `&lt; &gt; &amp; &quot; &apos; &#N; &#xH;` decoded to UTF-8.
    func decodeEntities(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) throws -> [UInt8] {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == 0x26 else { decoded.append(bytes[index]); index += 1; continue }
            guard let semicolon = bytes[index...].firstIndex(of: 0x3B) else {
                throw malformed("an entity reference without ';'", at: offset + index)
            }
            let name = String(decoding: bytes[(index + 1)..<semicolon], as: UTF8.self)
            guard let scalar = GPXScanner.entity(name) else { throw malformed("undefined entity &\(name);", at: offset + index) }
            decoded.append(contentsOf: Array(String(scalar).utf8))
            index = semicolon + 1
        }
        return decoded
    }

    static func entity(_ name: String) -> Unicode.Scalar? {
        switch name {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "quot": return "\""
        case "apos": return "'"
        default:
            guard name.hasPrefix("#") else { return nil }
            let digits = name.dropFirst()
            let value = digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            return value.flatMap(Unicode.Scalar.init)
        }
    }

    // MARK: Prolog, end, errors

    /// Hands documents in other encodings to expat before anything is reported.
    private func checkProlog() throws {
        guard filled >= 2 else { return }
        if (buffer[0] == 0xFE && buffer[1] == 0xFF) || (buffer[0] == 0xFF && buffer[1] == 0xFE) || buffer[0] == 0 || buffer[1] == 0 {
            throw NeedsFullParser(reason: "UTF-16")
        }
        var start = 0
        if filled >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { start = 3; position = 3 }
        guard starts(with: "<?xml", at: start), let close = find("?>", from: start) else { return }
        let declaration = String(decoding: UnsafeBufferPointer(start: buffer + start, count: close - start), as: UTF8.self).lowercased()
        guard let range = declaration.range(of: "encoding") else { return }
        let rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\"" || $0 == "'" }
        let encoding = rest.prefix { $0 != "\"" && $0 != "'" && $0 != " " }
        guard ["utf-8", "utf8", "us-ascii", "ascii"].contains(String(encoding)) else {
            throw NeedsFullParser(reason: "encoding \(encoding)")
        }
    }

    func finish() throws {
        tokenStart = filled
        if !state.sawRoot { throw InputError(.notGPX, "the file is empty; expected a <gpx> document", path: state.path) }
        if !stack.isEmpty { throw malformed("unclosed element at the end of the file (truncated?)") }
    }

    func location() -> (line: Int, column: Int) { location(at: tokenStart) }

    // MARK: Blocks (`GPXBlocks`)

    /// The open elements a block supposes at its start: `gpx`, `trk`, `trkseg`, unprefixed.
    static let segmentNames = ["gpx", "trk", "trkseg"].map { name in
        Array(name.utf8).withUnsafeBufferPointer { NameKey($0) }
    }

    /// True when the scan stopped at `offset` between two points of a segment, as a block that
    /// starts there supposes: no element open but `gpx`, `trk`, `trkseg`, no point or value being read.
    func isBetweenPoints(at offset: Int) -> Bool {
        stoppedAt == offset && !rootClosed && stack.count == 3 && Array(stack.elements) == Self.segmentNames
            && state.isBetweenPoints
    }

    /// The line the scan stopped on (1-based).
    func currentLine() -> Int {
        lineTracker.advance(buffer, to: position, bufferOffset: bufferOffset)
        return lineTracker.line
    }

    /// How a block's scan ended, to be taken over by the scanner of the whole file (`adopt`):
    /// nil when it did not end between two tokens with no point or value being read.
    func blockEnd() -> GPXBlockEnd? {
        guard !state.failed, state.isBetweenTokens else { return nil }
        lineTracker.advance(buffer, to: filled, bufferOffset: bufferOffset)
        let (elements, counters) = state.openElements
        return GPXBlockEnd(
            names: Array(stack.elements), rootClosed: rootClosed, elements: elements, counters: counters,
            summary: state.summary, newlines: lineTracker.line - 1,
            lastLineStart: lineTracker.line > 1 ? lineTracker.lineStart : nil)
    }

    /// Takes over the end of a block that began where this scan stopped (`isBetweenPoints`) and
    /// whose points were handed on (`GPXParseState.replay`), and goes on reading at `offset`,
    /// where the block ended.
    func adopt(_ end: GPXBlockEnd, resumingAt offset: Int) throws {
        stack.removeAll()
        for name in end.names { stack.append(name) }
        rootClosed = end.rootClosed
        state.adopt(end)
        lineTracker.advance(buffer, to: position, bufferOffset: bufferOffset)
        lineTracker.skip(newlines: end.newlines, lastLineStart: end.lastLineStart, to: offset)
        try source.seek(to: offset)
        (position, filled, bufferOffset, tokenStart, atEnd) = (0, 0, offset, 0, false)
        stoppedAt = offset
    }

    /// Nothing to do: the scanner checks `state.failed` after every token.
    func stop() {}

    private func location(at index: Int) -> (line: Int, column: Int) {
        lineTracker.advance(buffer, to: index, bufferOffset: bufferOffset)
        return (lineTracker.line, bufferOffset + index - lineTracker.lineStart + 1)
    }

    private func malformed(_ reason: String, at index: Int? = nil) -> InputError {
        let (line, column) = location(at: index ?? tokenStart)
        return InputError(
            .malformedXML, "not well-formed XML: \(reason); expected a GPX document", path: state.path,
            line: line, column: column)
    }

    private func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D }

    private func isNameStart(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte == 0x5F || byte == 0x3A
    }

}
