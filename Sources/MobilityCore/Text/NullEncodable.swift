/// An optional that encodes as JSON `null` when it has no value, instead of leaving its key
/// out: a `--json` object then has the same keys on every run, and a script reading
/// `summary["od_grid"]` finds `None` rather than a `KeyError`.
@propertyWrapper
public struct NullEncodable<Value: Encodable>: Encodable {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension NullEncodable: Sendable where Value: Sendable {}
extension NullEncodable: Equatable where Value: Equatable {}
extension NullEncodable: Hashable where Value: Hashable {}

/// Decodes `null` and a missing key alike as no value, so a file written before a key was
/// encoded as `null` still reads.
extension NullEncodable: Decodable where Value: Decodable {
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }
}

extension KeyedDecodingContainer {
    /// Chosen by synthesised `init(from:)` for a `@NullEncodable` property: a missing key is nil.
    public func decode<Value: Decodable>(_ type: NullEncodable<Value>.Type, forKey key: Key) throws -> NullEncodable<Value> {
        NullEncodable(wrappedValue: try decodeIfPresent(Value.self, forKey: key))
    }
}
