import Foundation
import MobilityCore
import Testing

/// A settings file laid over its defaults (`SettingsTree`): what `--config FILE` does to
/// `PipelineConfiguration`, here on settings of its own.
@Suite struct SettingsTreeTests {
    struct Settings: Codable, Equatable {
        struct Grid: Codable, Equatable { var cellMeters = 100.0, minimumPersons = 3 }
        var grid = Grid()
        var name = "a \"quoted\" name"
    }

    func laid(_ file: [String: Any]) throws -> Settings {
        var tree = try SettingsTree(defaults: Settings())
        try tree.merge(SettingsTree(any: file, path: ""), path: "")
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Settings.self, from: JSONEncoder().encode(tree))
    }

    @Test func aFileChangesOnlyTheKeysItGives() throws {
        var expected = Settings()
        expected.grid.minimumPersons = 5
        expected.name = "b"
        #expect(try laid(["grid": ["minimum_persons": 5], "name": "b"]) == expected)
        #expect(try laid([:]) == Settings())
    }

    @Test func anUnknownKeySaysWhereAndWhichKeysAreKnown() throws {
        #expect {
            try laid(["grid": ["minimum_devices": 5]])
        } throws: { error in
            (error as? PipelineError)?.description.contains("unknown key grid.minimum_devices (known here: cell_meters, minimum_persons)")
                == true
        }
        #expect {
            try laid(["grid": 5])
        } throws: { error in (error as? PipelineError)?.description.contains("grid should be a mapping of keys") == true }
    }

    @Test func theYAMLHoldsEveryKeyInOrder() throws {
        let yaml = try SettingsTree(defaults: Settings()).yaml(indent: 0)
        #expect(yaml == "grid:\n  cell_meters: 100\n  minimum_persons: 3\nname: \"a \\\"quoted\\\" name\"\n", "\(yaml)")
    }
}
