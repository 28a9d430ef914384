import Foundation

/// The project's one way to write JSON: keys sorted (stable files, stable fingerprints), `/`
/// left unescaped (paths read as paths), and non-finite numbers, which JSON lacks, written as
/// the strings "inf", "-inf" and "nan" instead of failing. Keys are snake_case for files and
/// summaries people read, or as the type declares them; pretty for files, compact for a line.
public enum JSONText {
    public enum Keys: Sendable { case snakeCase, asDeclared }
    public enum Layout: Sendable { case pretty, compact }

    public static func encoder(keys: Keys, layout: Layout) -> JSONEncoder {
        let encoder = JSONEncoder()
        if keys == .snakeCase { encoder.keyEncodingStrategy = .convertToSnakeCase }
        encoder.outputFormatting =
            layout == .pretty
            ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            : [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }

    public static func data<Value: Encodable>(_ value: Value, keys: Keys, layout: Layout) throws -> Data {
        try encoder(keys: keys, layout: layout).encode(value)
    }

    public static func string<Value: Encodable>(_ value: Value, keys: Keys, layout: Layout) throws -> String {
        String(decoding: try data(value, keys: keys, layout: layout), as: UTF8.self)
    }
}
