/// The devices one part of a distributed run owns: names from `first` (included) up to
/// `before` (excluded), compared byte by byte as UTF-8 (SQLite's and Spark's order), either
/// end open when nil. The parts' ranges tile every name, so a check-in of a device no part
/// has data for still belongs to exactly one part and becomes one `no_data` ride, as in a
/// single run.
public struct DeviceRange: Sendable, Equatable, CustomStringConvertible {
    public var first: String?
    public var before: String?

    public init(first: String? = nil, before: String? = nil) {
        (self.first, self.before) = (first, before)
    }

    public func contains(_ device: String) -> Bool {
        if let first, Self.precedes(device, first) { return false }
        if let before, !Self.precedes(device, before) { return false }
        return true
    }

    static func precedes(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

    public var description: String { "[\(first.map { "\"\($0)\"" } ?? "…"), \(before.map { "\"\($0)\"" } ?? "…"))" }
}
