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
