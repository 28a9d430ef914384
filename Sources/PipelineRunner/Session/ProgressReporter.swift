import Foundation
import MobilityCore

/// Reports progress: a redrawn bar on a terminal, plain timestamped lines otherwise (logs).
/// Everything goes to standard error, so `--json` output on standard output stays clean.
public final class ProgressReporter {
    public let isTerminal: Bool
    private let quiet: Bool
    private var lastDraw = Date.distantPast

    public init(quiet: Bool = false) {
        isTerminal = isatty(STDERR_FILENO) == 1
        self.quiet = quiet
    }

    /// A line that stays (a quarantined file, a summary), clearing any bar first.
    public func log(_ message: String) {
        guard !quiet else { return }
        if isTerminal {
            write("\r\u{1B}[2K" + message + "\n")
        } else {
            write("[\(ProgressReporter.clock())] " + message + "\n")
        }
    }

    /// A line only worth showing in logs (one per file); on a terminal the bar says it.
    public func detail(_ message: String) {
        guard !isTerminal else { return }
        log(message)
    }

    /// Redraws the bar (at most 10 times a second).
    public func update(done: Int, total: Int, item: String) {
        guard isTerminal, !quiet, Date().timeIntervalSince(lastDraw) > 0.1 || done == total else { return }
        lastDraw = Date()
        let width = 30
        let filled = total == 0 ? width : width * done / total
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let name = String((item as NSString).lastPathComponent.prefix(40))
        write("\r\u{1B}[2K[\(bar)] \(done)/\(total) \(name)")
        if done == total { write("\r\u{1B}[2K") }
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    private static func clock() -> String {
        ISO8601.formatNow()
    }
}
