import CGZip
import Foundation

/// Reads a file in chunks, inflating gzip on the fly.
///
/// zlib's `gzread` passes plain files through unchanged, so one reader serves `.gpx` and
/// `.gpx.gz`, `.csv` and `.csv.gz` alike, and nothing is ever loaded whole.
///
/// Inflation is bounded: once a gzip file has given `ratioCapAppliesAboveBytes`, it may not
/// expand more than `maxInflationRatio` times its size on disk, nor past `maxInflatedBytes`;
/// past either it is refused (`too_large`) as a likely decompression bomb, before a reader
/// spends minutes or gigabytes on it.
public final class ByteSource {
    /// Most a gzip file may expand, times its compressed size: 100. Sensor CSV and GPX
    /// compress 3–20×; gzip's own limit is about 1,032× (runs of one byte).
    public static let maxInflationRatio: Int64 = 100
    /// Inflated bytes below which the ratio is not checked: 64 MiB.
    public static let ratioCapAppliesAboveBytes: Int64 = 64 << 20
    /// Most bytes one gzip file may inflate to: 16 GiB.
    public static let maxInflatedBytes: Int64 = 16 << 30

    public let path: String
    private let file: gzFile
    /// The file's size on disk, bytes (for a gzip file, compressed).
    public let fileBytes: Int64
    private let isCompressed: Bool
    private var inflatedBytes: Int64 = 0
    /// Bytes `read` may still hand out (`limit(to:)`); unlimited by default.
    private var remaining = Int.max

    /// Opens `path`. `bufferBytes` is zlib's input buffer (default 128 KiB); zlib fills an
    /// output buffer of twice that before it hands out the first byte, so a reader that wants
    /// only a file's first lines (format detection, `pipeline inputs`) asks for a small one:
    /// with the default, listing 1,600 gzip files inflated 256 KiB of each (1.1 s of CPU).
    public init(path: String, bufferBytes: Int = 1 << 17) throws {
        guard let file = gzopen(path, "rb") else {
            throw InputError(.unreadable, "cannot open the file for reading", path: path)
        }
        gzbuffer(file, UInt32(max(1 << 12, bufferBytes)))
        self.path = path
        self.file = file
        isCompressed = gzdirect(file) == 0
        fileBytes = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
    }

    deinit { gzclose(file) }

    /// True for a file stored as it is (not gzip): only such a file can be read from an offset.
    public var isPlain: Bool { !isCompressed }

    /// Moves to `offset` bytes from the start of a plain file (`isPlain`), so the next `read`
    /// begins there: a GPX file's blocks are read side by side (`GPXBlocks`).
    public func seek(to offset: Int) throws {
        precondition(isPlain, "only a plain file is read from an offset")
        guard gzseek(file, off_t(offset), SEEK_SET) == off_t(offset) else {
            throw InputError(.unreadable, "cannot move to byte \(offset) of the file", path: path)
        }
    }

    /// From now on `read` hands out at most `bytes` more bytes, then says the end.
    public func limit(to bytes: Int) { remaining = max(0, bytes) }

    /// Fills `buffer` from its start; returns the number of bytes read, 0 at the end.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard remaining > 0 else { return 0 }
        let count = gzread(file, buffer.baseAddress, UInt32(min(buffer.count, remaining)))
        if count < 0 {
            var code: Int32 = 0
            let message = gzerror(file, &code).map { String(cString: $0) } ?? "unknown zlib error"
            throw InputError(.unreadable, "cannot read (\(message)); a truncated or corrupt gzip file?", path: path)
        }
        if isCompressed {
            inflatedBytes += Int64(count)
            try checkInflation()
            if count == 0 { try checkComplete() }
        }
        if remaining != .max { remaining -= Int(count) }
        return Int(count)
    }

    /// At the end of a gzip file: zlib says `Z_BUF_ERROR` when the input ended in the middle of
    /// the stream (its manual, `gzread`), as an upload or copy cut short leaves it. What came
    /// before the cut is not kept: like a cut-off GPX, the file is refused as a whole.
    private func checkComplete() throws {
        var code: Int32 = 0
        _ = gzerror(file, &code)
        guard code == Z_BUF_ERROR else { return }
        throw InputError(
            .unreadable,
            "the gzip data ends early, after \(inflatedBytes) bytes unpacked: a truncated upload or copy? "
                + "(`gzip -t` checks a file)", path: path)
    }

    private func checkInflation() throws {
        let overRatio = inflatedBytes > Self.ratioCapAppliesAboveBytes && inflatedBytes > Self.maxInflationRatio * max(fileBytes, 1)
        guard overRatio || inflatedBytes > Self.maxInflatedBytes else { return }
        let why =
            overRatio ? "more than \(Self.maxInflationRatio)× its \(fileBytes) bytes" : "past \(Self.maxInflatedBytes >> 30) GiB"
        throw InputError(
            .tooLarge,
            "the gzip data expands \(why) (\(inflatedBytes >> 20) MiB so far): refused as a likely "
                + "decompression bomb; sensor CSV and GPX compress 3–20×", path: path)
    }
}
