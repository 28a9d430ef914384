import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A temporary file made in a folder and unlinked at once: it is gone when its descriptor is
/// closed, or when the process ends, however it ends. The legs' lines (`TextSpool`) and a
/// movement's fixes (`TrackPointFile`) wait in such files beside the store (the system's
/// temporary folder may be a RAM disk).
enum UnlinkedFile {
    /// The open descriptor of a new file in `directory` named from `prefix`; a folder where no
    /// file can be made throws, naming it and what the file was `for`.
    static func make(in directory: String, prefix: String, for purpose: String) throws -> Int32 {
        var template = Array((directory + "/" + prefix + "-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard made >= 0 else {
            throw PipelineError(
                .cannotWrite, "cannot make a temporary file in \(directory) for \(purpose): \(String(cString: strerror(errno)))")
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return made
    }
}
