import CCrypto
import Foundation

/// SHA-256 of an input's bytes, streamed in 1 MiB chunks; for a folder, of its files' names
/// and contents in sorted order. Two inputs with the same hash are the same data, so
/// re-ingesting an unchanged input is a no-op.
public enum ContentHash {
    public static func sha256(path: String) throws -> String {
        let hasher = SHA256Hasher()
        try update(hasher, path: path)
        return hasher.hexDigest()
    }

    private static func update(_ hasher: SHA256Hasher, path: String) throws {
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        if isDirectory.boolValue {
            let names = try FileManager.default.contentsOfDirectory(atPath: path).filter { !$0.hasPrefix(".") }.sorted()
            for name in names {
                hasher.update(data: Data(name.utf8))
                try update(hasher, path: (path as NSString).appendingPathComponent(name))
            }
            return
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw InputError(.unreadable, "cannot open the file for reading", path: path)
        }
        defer { try? handle.close() }
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            hasher.update(data: chunk)
        }
    }
}

/// Incremental SHA-256 (FIPS 180-4) through Debian's libcrypto, OpenSSL's EVP interface.
///
/// Why not swift-crypto: the project needs this one hash, and swift-crypto builds its own copy
/// of BoringSSL from source, a quarter to half of a clean release build on a 2-core machine;
/// libcrypto is already on every Debian system and comes in through `CCrypto` like the other C
/// libraries.
public final class SHA256Hasher {
    private let context: OpaquePointer

    public init() {
        guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            fatalError("libcrypto could not set up SHA-256 (out of memory?)")
        }
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    public func update(data: Data) {
        data.withUnsafeBytes { bytes in
            guard bytes.count > 0 else { return }
            precondition(EVP_DigestUpdate(context, bytes.baseAddress, bytes.count) == 1, "libcrypto SHA-256 update failed")
        }
    }

    /// The digest as 64 lower-case hexadecimal digits; the hasher is spent afterwards.
    public func hexDigest() -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        precondition(EVP_DigestFinal_ex(context, &digest, &length) == 1 && length == 32, "libcrypto SHA-256 final failed")
        return digest.map { String(format: "%02x", $0) }.joined()
    }
}
