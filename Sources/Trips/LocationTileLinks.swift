import Foundation
import MobilityCore

/// `pipeline locations --tile-points FILE --links-out FILE`: the tile step of dataset-scope
/// locations in a distributed run (spark/pipeline_spark/location_tiles.py). FILE holds the
/// staypoints of one or more tiles, `tile,id,lat_deg,lon_deg,owned` (owned 1, or 0 for a
/// staypoint of the tile's 2ε halo); the links of each tile's own staypoints
/// (`LocationClusterer.tileLinks`) are written as `kind,a,b`: `core,id,`, `union,id,id`,
/// `border,id,core id`. `pipeline locations --store … --links DIR` joins them.
public struct LocationTileLinks {
    public var pointsPath: String
    public var linksPath: String
    public var parameters = LocationParameters()

    public init(pointsPath: String, linksPath: String) { (self.pointsPath, self.linksPath) = (pointsPath, linksPath) }

    public struct Summary: Sendable, Encodable {
        public var tiles = 0, staypoints = 0, halo = 0, links = 0
    }

    public func run() throws -> Summary {
        let table = try CSVTable.read(path: pointsPath)
        let at = try ["tile", "id", "lat_deg", "lon_deg", "owned"].map { name in
            guard let index = table.columns.firstIndex(of: name) else {
                throw PipelineError(
                    .malformedTable, path: pointsPath, line: 1, reason: "no column \(name); expected tile,id,lat_deg,lon_deg,owned")
            }
            return index
        }
        var tiles: [String: [LocationClusterer.TilePoint]] = [:]
        var summary = Summary()
        for (line, row) in table.rows.enumerated() {
            func number(_ column: Int) throws -> Double {
                guard let text = row[at[column]], let value = Double(text) else {
                    throw PipelineError(
                        .malformedTable, path: pointsPath, line: line + 2,
                        reason: "\(table.columns[at[column]]) is \(row[at[column]] ?? "empty"), not a number")
                }
                return value
            }
            let id = try number(1), owned = try number(4) == 1
            tiles[row[at[0]] ?? "", default: []].append(
                .init(id: Int(id), latitudeDegrees: try number(2), longitudeDegrees: try number(3), owned: owned))
            if owned { summary.staypoints += 1 } else { summary.halo += 1 }
        }
        let clusterer = LocationClusterer(parameters: parameters)
        var text = "kind,a,b\n"
        for key in tiles.keys.sorted() {
            for link in clusterer.tileLinks(tiles[key]!) {
                switch link {
                case .core(let id): text += "core,\(id),\n"
                case .union(let a, let b): text += "union,\(a),\(b)\n"
                case .border(let id, let core): text += "border,\(id),\(core)\n"
                }
                summary.links += 1
            }
        }
        summary.tiles = tiles.count
        try Data(text.utf8).writeThroughPartial(to: URL(fileURLWithPath: linksPath))
        return summary
    }

    /// Every tile's links in `folder` (`part-*.csv`), their staypoint ids turned into
    /// positions in `ids` (the store's staypoints, in the order the clusterer gets them).
    public static func links(in folder: String, ids: [Int]) throws -> [LocationClusterer.TileLink] {
        let position = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            throw PipelineError(
                .malformedTable, path: folder, line: 0, reason: "no folder of tile links (written by `pipeline locations --tile-points`)")
        }
        var links: [LocationClusterer.TileLink] = []
        for name in names.sorted() where name.hasPrefix("part-") && name.hasSuffix(".csv") {
            let path = (folder as NSString).appendingPathComponent(name)
            let table = try CSVTable.read(path: path)
            guard table.columns == ["kind", "a", "b"] else {
                throw PipelineError(
                    .malformedTable, path: path, line: 1, reason: "columns are \(table.columns.joined(separator: ",")); expected kind,a,b")
            }
            for (line, row) in table.rows.enumerated() {
                func staypoint(_ field: String?) throws -> Int {
                    guard let field, let id = Int(field), let index = position[id] else {
                        throw PipelineError(
                            .malformedTable, path: path, line: line + 2,
                            reason: "\(field ?? "an empty field") is not a staypoint id of the store")
                    }
                    return index
                }
                switch row[0] {
                case "core": links.append(.core(try staypoint(row[1])))
                case "union": links.append(.union(try staypoint(row[1]), try staypoint(row[2])))
                case "border": links.append(.border(try staypoint(row[1]), core: try staypoint(row[2])))
                default:
                    throw PipelineError(
                        .malformedTable, path: path, line: line + 2, reason: "kind is \(row[0] ?? "empty"); expected core, union or border")
                }
            }
        }
        return links
    }
}
