/// Whether an input a run finds is one the store already holds: the rule that makes an input
/// its content. Moving, renaming or re-mounting changes nothing (the stored input follows its
/// content to the new path), a copy beside the original is never counted twice, and an input
/// whose content, column mapping and owner are what they were is not read again. The store's
/// side comes in as values (`Stored`), so this holds the rule and no store.
public enum SameInput {
    /// What the store holds of one input path.
    public struct Stored: Sendable, Equatable {
        public var path: String
        /// Empty when the input could not be hashed when it was stored.
        public var contentSHA256: String
        /// "ingested", "quarantined" or "skipped".
        public var status: String
        /// The user's column mapping it was read with (`ColumnMappingSpec.text`), if any.
        public var columnMapping: String?
        /// Whose recording it was stored as (nil for tables that are no device's recording).
        public var device: String?, person: String?

        public init(
            path: String, contentSHA256: String, status: String, columnMapping: String? = nil, device: String? = nil,
            person: String? = nil
        ) {
            (self.path, self.contentSHA256, self.status, self.columnMapping) = (path, contentSHA256, status, columnMapping)
            (self.device, self.person) = (device, person)
        }
    }

    /// What this run found at one path: its content, the mapping it is read with, whose it is.
    public struct Found: Sendable {
        public var contentSHA256: String
        public var columnMapping: String?
        /// A device's recording (its device and person must match a stored copy's to be it).
        public var isRecording: Bool
        public var device: String, person: String

        public init(contentSHA256: String, columnMapping: String?, isRecording: Bool, device: String, person: String) {
            (self.contentSHA256, self.columnMapping, self.isRecording, self.device, self.person) = (
                contentSHA256, columnMapping, isRecording, device, person
            )
        }

        /// Whether a stored input of the same content was stored as this one's owner.
        func sameOwner(_ stored: Stored) -> Bool { !isRecording || (stored.device == device && stored.person == person) }
    }

    public enum Decision: Equatable, Sendable {
        /// The store holds it at this path as it is: nothing to read.
        case unchanged
        /// The store holds it at `from`, a path that is gone: the stored input moves here.
        case moved(from: String)
        /// The store holds the same content at `of`, which still exists: this is a copy, skipped.
        case copy(of: String)
        /// New, or changed: read it.
        case read
    }

    /// The decision for `found` at a path the store holds as `previous` (nil: a path it does not
    /// know). `sameContent` gives the store's inputs of `found`'s content in path order, with
    /// whether each one's path is gone; it is asked only for a path the store does not know.
    /// `rereadAll` (`--force`, a new cleaning) reads every input again; `force` never takes a
    /// new path for a stored one.
    public static func decide(
        _ found: Found, previous: Stored?, sameContent: () throws -> [(stored: Stored, gone: Bool)], rereadAll: Bool, force: Bool
    ) rethrows -> Decision {
        if !rereadAll, let previous, previous.contentSHA256 == found.contentSHA256, previous.columnMapping == found.columnMapping,
            previous.status != "ingested" || found.sameOwner(previous)
        {
            return .unchanged
        }
        guard !force, previous == nil,
            let earlier = try sameContent().first(where: { $0.stored.status == "quarantined" || found.sameOwner($0.stored) })
        else { return .read }
        return earlier.gone ? .moved(from: earlier.stored.path) : .copy(of: earlier.stored.path)
    }

    /// Whether an input that will not be read (skipped or quarantined) was quarantined before
    /// for this very content, so that it is not stored again (no new run time in quarantine.csv).
    public static func quarantinedBefore(_ contentSHA256: String, previous: Stored?, rereadAll: Bool) -> Bool {
        !rereadAll && previous?.status == "quarantined" && previous?.contentSHA256 == contentSHA256
    }
}
