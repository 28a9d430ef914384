/// Why a whole input could not be read: the file is quarantined with this, and the run goes on.
///
/// Carries a stable code, what was wrong and what was expected, and where: the path and, when
/// known, the 1-based line and column or the element.
public struct InputError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Code: String, Sendable {
        case unreadable
        case malformedXML = "malformed_xml"
        case notGPX = "not_gpx"
        case unknownFormat = "unknown_format"
        case badHeader = "bad_header"
        case malformedRecord = "malformed_record"
        case badJSON = "bad_json"
        case noData = "no_data"
        /// Decompression past its ratio or size cap (a likely decompression bomb).
        case tooLarge = "too_large"
    }

    public var code: Code
    public var message: String
    public var path: String
    public var line: Int?
    public var column: Int?

    public init(_ code: Code, _ message: String, path: String, line: Int? = nil, column: Int? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.line = line
        self.column = column
    }

    /// `path:line:column: message`, the shape compilers use, so editors can jump to it.
    public var description: String {
        var location = path
        if let line { location += ":\(line)" }
        if let column { location += ":\(column)" }
        return "\(location): \(message)"
    }
}
