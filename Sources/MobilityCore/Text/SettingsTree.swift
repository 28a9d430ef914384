import Foundation

/// A settings file laid over its defaults key by key: a JSON-like tree of the defaults
/// (encoded with snake_case keys), which a parsed YAML or JSON file (`init(any:path:)`) merges
/// into, an unknown key being an error that names the keys known there; then decoded into the
/// settings, or printed as YAML with every key (`yaml(indent:)`). The settings' types are the
/// caller's (`PipelineConfiguration`); this knows only the tree.
public indirect enum SettingsTree: Codable, Equatable {
    case null, bool(Bool), number(Double), string(String), array([SettingsTree]), object([(String, SettingsTree)])

    public static func == (a: SettingsTree, b: SettingsTree) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case let (.bool(x), .bool(y)): x == y
        case let (.number(x), .number(y)): x == y
        case let (.string(x), .string(y)): x == y
        case let (.array(x), .array(y)): x == y
        case let (.object(x), .object(y)): x.map(\.0) == y.map(\.0) && x.map(\.1) == y.map(\.1)
        default: false
        }
    }

    /// The tree of `defaults`, every key present.
    public init<Settings: Encodable>(defaults: Settings) throws {
        self = try JSONDecoder().decode(SettingsTree.self, from: JSONText.data(defaults, keys: .snakeCase, layout: .compact))
    }

    /// A parsed file's value (`NSNull`, `Bool`, numbers, `String`, arrays, string-keyed
    /// dictionaries); `path` names where it is, for errors.
    public init(any: Any, path: String) throws {
        switch any {
        case is NSNull: self = .null
        case let value as Bool: self = .bool(value)
        case let value as Int: self = .number(Double(value))
        case let value as Double: self = .number(value)
        case let value as String: self = .string(value)
        case let value as [Any]: self = .array(try value.map { try SettingsTree(any: $0, path: path) })
        case let value as [String: Any]:
            self = .object(try value.keys.sorted().map { ($0, try SettingsTree(any: value[$0]!, path: path + "." + $0)) })
        default: throw PipelineError(.invalidConfiguration, "\(path.dropFirst()): unsupported value \(any)")
        }
    }

    /// Lays `other` over this tree: objects merge key by key (unknown keys are errors), any
    /// other value replaces.
    public mutating func merge(_ other: SettingsTree, path: String) throws {
        guard case .object(var mine) = self else { self = other; return }
        guard case .object(let theirs) = other else {
            throw PipelineError(
                .invalidConfiguration, "\(path.isEmpty ? "the file" : String(path.dropFirst())) should be a mapping of keys")
        }
        for (key, value) in theirs {
            guard let index = mine.firstIndex(where: { $0.0 == key }) else {
                let known = mine.map(\.0).joined(separator: ", ")
                throw PipelineError(.invalidConfiguration, "unknown key \((path + "." + key).dropFirst()) (known here: \(known))")
            }
            if case .null = mine[index].1 { mine[index].1 = value } else { try mine[index].1.merge(value, path: path + "." + key) }
        }
        self = .object(mine)
    }

    public init(from decoder: Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: AnyKey.self) {
            self = .object(
                try keyed.allKeys.map(\.stringValue).sorted().map { ($0, try keyed.decode(SettingsTree.self, forKey: AnyKey($0))) })
            return
        }
        if var list = try? decoder.unkeyedContainer() {
            var items: [SettingsTree] = []
            while !list.isAtEnd { items.append(try list.decode(SettingsTree.self)) }
            self = .array(items)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode(Double.self) {
            self = .number(value)
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    public func encode(to encoder: Encoder) throws {
        switch self {
        case .null: var c = encoder.singleValueContainer(); try c.encodeNil()
        case .bool(let v): var c = encoder.singleValueContainer(); try c.encode(v)
        case .number(let v): var c = encoder.singleValueContainer(); try c.encode(v)
        case .string(let v): var c = encoder.singleValueContainer(); try c.encode(v)
        case .array(let items): var c = encoder.unkeyedContainer(); for item in items { try c.encode(item) }
        case .object(let pairs):
            var c = encoder.container(keyedBy: AnyKey.self)
            for (key, value) in pairs { try c.encode(value, forKey: AnyKey(key)) }
        }
    }

    /// The tree as YAML, keys in order, nested mappings indented two spaces.
    public func yaml(indent: Int) -> String {
        let pad = String(repeating: " ", count: indent)
        guard case .object(let pairs) = self else { return scalar }
        return pairs.map { key, value in
            if case .object = value { return "\(pad)\(key):\n" + value.yaml(indent: indent + 2) }
            if case .array(let items) = value, items.contains(where: { if case .object = $0 { true } else { false } }) {
                return "\(pad)\(key):\n" + items.map { "\(pad)  - \($0.scalar)\n" }.joined() // a list of mappings, one a line
            }
            return "\(pad)\(key): \(value.scalar)\n"
        }.joined()
    }

    private var scalar: String {
        switch self {
        case .null: "null"
        case .bool(let v): v ? "true" : "false"
        case .number(let v): v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
        case .string(let v): "\"" + v.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        case .array(let items): "[" + items.map(\.scalar).joined(separator: ", ") + "]"
        case .object(let pairs): "{" + pairs.map { "\($0.0): \($0.1.scalar)" }.joined(separator: ", ") + "}"
        }
    }
}

struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
