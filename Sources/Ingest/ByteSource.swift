import CGZip

/// Reads a file in chunks, inflating gzip on the fly.
///
/// zlib's `gzread` passes plain files through unchanged, so one reader serves `.gpx` and
/// `.gpx.gz`, `.csv` and `.csv.gz` alike, and nothing is ever loaded whole.
public final class ByteSource {
    public let path: String
    private let file: gzFile

    public init(path: String) throws {
        guard let file = gzopen(path, "rb") else {
            throw InputError(.unreadable, "cannot open the file for reading", path: path)
        }
        gzbuffer(file, 1 << 17)
        self.path = path
        self.file = file
    }

    deinit { gzclose(file) }

    /// Fills `buffer` from its start; returns the number of bytes read, 0 at the end.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = gzread(file, buffer.baseAddress, UInt32(buffer.count))
        if count < 0 {
            var code: Int32 = 0
            let message = gzerror(file, &code).map { String(cString: $0) } ?? "unknown zlib error"
            throw InputError(.unreadable, "cannot read (\(message)); a truncated or corrupt gzip file?", path: path)
        }
        return Int(count)
    }

}
