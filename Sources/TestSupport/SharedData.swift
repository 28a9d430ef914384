import Foundation

/// The real traces in `../shared/data` beside the project (on developer machines and in CI,
/// not on a user's machine). Tests that need them skip with a message when absent.
public enum SharedData {
    /// The project's root folder, found from this source file's path.
    public static let projectRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    public static let folder = ((projectRoot as NSString).deletingLastPathComponent as NSString)
        .appendingPathComponent("shared/data")

    public static var isAvailable: Bool { FileManager.default.fileExists(atPath: folder) }

    public static let skipMessage = "../shared/data is absent: real-trace tests skipped (they run on developer machines and in CI)"

    public static func path(_ relative: String) -> String {
        (folder as NSString).appendingPathComponent(relative)
    }

    /// Every regular file under `relative`, sorted, hidden files excluded.
    public static func files(under relative: String, extensions: Set<String>? = nil) -> [String] {
        let root = path(relative)
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
        var files: [String] = []
        while let name = enumerator.nextObject() as? String {
            let full = (root as NSString).appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            guard !(name as NSString).lastPathComponent.hasPrefix("."),
                FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue
            else { continue }
            if let extensions, !extensions.contains((name as NSString).pathExtension.lowercased()) { continue }
            files.append(full)
        }
        return files.sorted()
    }
}
