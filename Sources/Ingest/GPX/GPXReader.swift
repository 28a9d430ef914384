import CExpat
import Foundation
import MobilityCore

/// Streams a GPX 1.0 or 1.1 file (`.gpx` or `.gpx.gz`).
///
/// UTF-8 and ASCII documents (nearly all) go through `GPXScanner`, the fast path; anything
/// else (ISO-8859-1, UTF-16, a DOCTYPE with an internal subset) through libexpat, which
/// decodes UTF-8, UTF-16, ISO-8859-1 and US-ASCII. Memory stays constant whatever the file
/// size: the file is read in 256 KiB chunks and each point is handed to the visitor as soon
/// as its closing tag is read. Namespace prefixes are ignored, so undeclared extension
/// prefixes parse; see `GPXElement`. Foundation's `XMLParser(data:)` is avoided on purpose:
/// it needs the whole document in memory and fails on large ones on Linux.
///
/// - Complexity: O(n) in the file size, one pass.
public struct GPXReader {
    public let path: String
    /// 64 KiB: below malloc's mmap threshold, so a run over many small files reuses heap
    /// pages instead of faulting in fresh ones for every file.
    public var chunkBytes = 1 << 16
    /// False to read every document with expat (to compare the two paths in tests).
    public var allowsFastScanner = true
    /// Threads that scan a large plain file's blocks ahead of the reading thread (`GPXBlocks`);
    /// 0 reads on the calling thread alone. Points, counts and errors are the same either way.
    public var blockWorkers = 0
    /// The blocks' size: 2 MiB. A file shorter than two blocks is read on one thread.
    public var blockBytes = 2 << 20

    public init(path: String) {
        self.path = path
    }

    /// Reads the whole file, calling `visitor` for each point. Throws `InputError` when the
    /// file is not well-formed XML or not GPX; points already visited then belong to a file
    /// that is quarantined, so callers write them in a transaction they can roll back.
    public func read(visitor: GPXVisitor) throws -> GPXSummary {
        var blocks = 0
        return try read(visitor: visitor, blocksTakenOver: &blocks)
    }

    /// The same, saying how many blocks scanned ahead were taken over (`GPXBlocks`).
    func read(visitor: GPXVisitor, blocksTakenOver: inout Int) throws -> GPXSummary {
        if allowsFastScanner {
            let state = GPXParseState(path: path, visitor: visitor)
            do {
                let source = try ByteSource(path: path)
                let scanner = GPXScanner(source: source, state: state, chunkBytes: chunkBytes)
                let size = Int(source.fileBytes)
                if blockWorkers > 0, size >= 2 * blockBytes, source.isPlain {
                    blocksTakenOver = try GPXBlocks(
                        path: path, size: size, blockBytes: blockBytes, workers: blockWorkers, chunkBytes: chunkBytes
                    ).scan(with: scanner, state: state)
                } else {
                    try scanner.scan()
                }
                return state.summary
            } catch is GPXScanner.NeedsFullParser {
                // Nothing was reported yet: read the whole document again with expat.
            }
        }
        return try readWithExpat(visitor: visitor)
    }

    private func readWithExpat(visitor: GPXVisitor) throws -> GPXSummary {
        let source = try ByteSource(path: path)
        guard let parser = XML_ParserCreate(nil) else {
            throw InputError(.unreadable, "cannot create an XML parser", path: path)
        }
        defer { XML_ParserFree(parser) }
        let state = GPXParseState(path: path, visitor: visitor)
        let control = ExpatControl(parser: parser)
        state.parser = control
        defer { withExtendedLifetime(control) {} } // `state.parser` does not retain it
        XML_SetUserData(parser, Unmanaged.passUnretained(state).toOpaque())
        XML_SetElementHandler(parser, gpxStartElement, gpxEndElement)
        XML_SetCharacterDataHandler(parser, gpxCharacterData)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkBytes, alignment: 16)
        defer { buffer.deallocate() }
        var isFinal = false
        while !isFinal {
            let count = try source.read(into: buffer)
            isFinal = count == 0
            let status = XML_Parse(parser, buffer.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(count), isFinal ? 1 : 0)
            if let error = state.error { throw error }
            if status != XML_STATUS_OK { throw xmlError(parser) }
        }
        guard state.sawRoot else {
            throw InputError(.notGPX, "the file is empty; expected a <gpx> document", path: path)
        }
        return state.summary
    }

    private func xmlError(_ parser: XML_Parser) -> InputError {
        let code = XML_GetErrorCode(parser)
        let reason = XML_ErrorString(code).map { String(cString: $0) } ?? "unknown error"
        return InputError(
            .malformedXML, "not well-formed XML: \(reason); expected a GPX document",
            path: path, line: Int(XML_GetCurrentLineNumber(parser)),
            column: Int(XML_GetCurrentColumnNumber(parser)) + 1)
    }
}

private func gpxState(_ userData: UnsafeMutableRawPointer?) -> GPXParseState {
    Unmanaged<GPXParseState>.fromOpaque(userData!).takeUnretainedValue()
}

private let gpxStartElement: XML_StartElementHandler = { userData, name, attributes in
    gpxState(userData).start(GPXElement(qualifiedName: name!), attributes: ExpatAttributes(list: attributes))
}

/// Expat's attribute list: alternating NUL-terminated names and values.
private struct ExpatAttributes: GPXAttributeSource {
    let list: UnsafeMutablePointer<UnsafePointer<CChar>?>?

    func withValue<T>(of name: StaticString, _ body: (UnsafeBufferPointer<UInt8>) -> T?) -> T? {
        guard var cursor = list else { return nil }
        while let key = cursor.pointee, let value = (cursor + 1).pointee {
            if strcmp(key, UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)) == 0 {
                return value.withMemoryRebound(to: UInt8.self, capacity: 1) { body(UnsafeBufferPointer(start: $0, count: strlen(value))) }
            }
            cursor += 2
        }
        return nil
    }
}

private let gpxEndElement: XML_EndElementHandler = { userData, name in
    gpxState(userData).end()
}

private let gpxCharacterData: XML_CharacterDataHandler = { userData, text, length in
    let state = gpxState(userData)
    guard state.capturing, let text else { return }
    text.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
        state.characters(UnsafeBufferPointer(start: $0, count: Int(length)))
    }
}

/// Expat's position and stop switch, for `GPXParseState`.
private final class ExpatControl: GPXParserControl {
    let parser: XML_Parser

    init(parser: XML_Parser) {
        self.parser = parser
    }

    func location() -> (line: Int, column: Int) {
        (Int(XML_GetCurrentLineNumber(parser)), Int(XML_GetCurrentColumnNumber(parser)) + 1)
    }

    func stop() { XML_StopParser(parser, 0) }
}
