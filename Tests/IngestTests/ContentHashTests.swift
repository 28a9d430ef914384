import Foundation
import Ingest
import TestSupport
import Testing

/// SHA-256 through libcrypto, against the FIPS 180-2 examples and Python's hashlib.
@Suite struct ContentHashTests {
    func hex(_ text: String) -> String {
        let hasher = SHA256Hasher()
        hasher.update(data: Data(text.utf8))
        return hasher.hexDigest()
    }

    /// FIPS 180-2, appendix B.1 and B.2 (one- and multi-block messages), and the empty message.
    @Test func publishedExamples() {
        #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    /// A file over three 1 MiB read chunks, and a folder (names and contents in sorted order);
    /// expected values from Python's `hashlib.sha256` on the same bytes.
    @Test func filesAndFoldersStreamInChunks() throws {
        let folder = try TemporaryFolder()
        let data = Data((0..<(3 * (1 << 20) + 17)).map { UInt8($0 % 251) })
        try folder.write("d/b.gpx", data)
        try folder.write("d/a.csv", "abc")
        #expect(try ContentHash.sha256(path: folder.file("d/b.gpx")) == "fe2aaf82bfa2ffec207a0c6fa7ce7d4af268d67e2672fdaec675f3f9b65d0854")
        #expect(try ContentHash.sha256(path: folder.file("d")) == "cf4da1e9a9cf94eed0bbc12f580324f7414868ed190820fdc6d332dac9934561")
    }
}
