import CGZip
import Foundation

/// Writes gzip files with zlib, for `.gz` fixtures.
public enum Gzip {
    public struct WriteError: Error {}

    public static func write(_ data: Data, to path: String) throws {
        guard let file = gzopen(path, "wb") else { throw WriteError() }
        defer { gzclose(file) }
        let written = data.withUnsafeBytes { gzwrite(file, $0.baseAddress, UInt32($0.count)) }
        guard written == data.count else { throw WriteError() }
    }
}
