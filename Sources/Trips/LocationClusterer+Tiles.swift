import Foundation
import MobilityCore

/// Locations across devices (`scope: dataset`) clustered in spatial tiles, for a distributed
/// run (spark/): each tile holds the staypoints it owns and, as a halo, every other staypoint
/// within 2ε of them; `tileLinks` finds there what DBSCAN needs to know of the tile's own
/// staypoints, and `cluster(_:tileLinks:)` joins every tile's links into the locations one
/// `cluster` pass over all staypoints finds: the same members, numbers and centres.
///
/// Why a 2ε halo: an owned staypoint's neighbours lie within ε of it, and whether such a
/// neighbour is a core point depends on the staypoints within ε of the neighbour.
///
/// Why the result is the single pass's (Ester et al. 1996): core points and their ε-links
/// do not depend on order. `dbscan` seeds clusters at core points in (start, device) order
/// and expands each fully before the next, so a cluster is ranked by its first core point,
/// and a border staypoint (not a core point, within ε of one) joins the earliest-ranked of
/// its core neighbours' clusters; numbers then go by first appearance, as in `dbscan`.
///
/// - Complexity: per tile, that of `dbscan` over its owned and halo staypoints; the join,
///   O(n α(n) + n log n) over n staypoints with a link or two each.
extension LocationClusterer {
    /// A staypoint in a tile: its id (the caller's: a data-set id), its place, and whether
    /// the tile owns it (false: in the halo).
    public struct TilePoint: Hashable, Sendable {
        public var id: Int
        public var latitudeDegrees: Double, longitudeDegrees: Double
        public var owned: Bool

        public init(id: Int, latitudeDegrees: Double, longitudeDegrees: Double, owned: Bool) {
            (self.id, self.latitudeDegrees, self.longitudeDegrees, self.owned) = (id, latitudeDegrees, longitudeDegrees, owned)
        }
    }

    /// What a tile knows of its own staypoints, by id.
    public enum TileLink: Hashable, Sendable {
        /// A core point (at least `minimumStaypoints` within ε, itself included).
        case core(Int)
        /// Two core points in one cluster.
        case union(Int, Int)
        /// A staypoint that is not a core point, within ε of the core point `core`.
        case border(Int, core: Int)
    }

    /// The links of the tile's owned staypoints. The halo must hold every staypoint within 2ε
    /// of an owned one; halo staypoints get no link of their own (their tile gives them).
    public func tileLinks(_ points: [TilePoint]) -> [TileLink] {
        let neighbours = neighbourLists(
            points.map {
                TrackPoint(timeSeconds: 0, latitudeDegrees: $0.latitudeDegrees, longitudeDegrees: $0.longitudeDegrees)
            })
        // Exact for owned staypoints and their neighbours, whose ε-neighbourhoods the halo holds.
        let isCore = neighbours.map { $0.count >= parameters.minimumStaypoints }
        var sets = DisjointSets(count: points.count)
        var links: [TileLink] = []
        for i in points.indices where points[i].owned && isCore[i] {
            links.append(.core(points[i].id))
            for j in neighbours[i] where isCore[j] { sets.union(i, j) }
        }
        for i in points.indices where isCore[i] && sets.root(i) != i {
            links.append(.union(points[i].id, points[sets.root(i)].id))
        }
        for i in points.indices where points[i].owned && !isCore[i] {
            var clusters = Set<Int>()
            for j in neighbours[i] where isCore[j] && clusters.insert(sets.root(j)).inserted {
                links.append(.border(points[i].id, core: points[j].id))
            }
        }
        return links
    }

    /// Dataset-scope locations from every tile's links, whose ids are indices into
    /// `staypoints`; sets each staypoint's `location`. Equal to `cluster(&staypoints)`.
    public func cluster(_ staypoints: inout [Staypoint], tileLinks links: [TileLink]) -> [Location] {
        let order = Self.order(staypoints, Array(staypoints.indices))
        var position = [Int](repeating: 0, count: staypoints.count)
        for (at, index) in order.enumerated() { position[index] = at }
        var sets = DisjointSets(count: staypoints.count)
        var isCore = [Bool](repeating: false, count: staypoints.count)
        var borders: [(Int, Int)] = []
        for link in links {
            switch link {
            case .core(let i): isCore[i] = true
            case .union(let a, let b): sets.union(a, b)
            case .border(let b, let core): borders.append((b, core))
            }
        }
        // A cluster's rank: the position of its first core point, where `dbscan` seeds it.
        var firstCore: [Int: Int] = [:]
        for i in staypoints.indices where isCore[i] {
            firstCore[sets.root(i), default: .max] = min(firstCore[sets.root(i)] ?? .max, position[i])
        }
        var labels = [Int?](repeating: nil, count: staypoints.count)
        for i in staypoints.indices where isCore[i] { labels[position[i]] = firstCore[sets.root(i)] }
        for (border, core) in borders where !isCore[border] {
            guard let rank = firstCore[sets.root(core)] else { continue }
            labels[position[border]] = min(labels[position[border]] ?? .max, rank)
        }
        return assign(renumberedByFirstAppearance(labels), order: order, to: &staypoints, device: nil, offset: 0)
    }
}

/// Union-find with path halving and union by smaller index (Tarjan 1975).
struct DisjointSets {
    private var parent: [Int]

    init(count: Int) { parent = Array(0..<count) }

    mutating func root(_ element: Int) -> Int {
        var element = element
        while parent[element] != element {
            parent[element] = parent[parent[element]]
            element = parent[element]
        }
        return element
    }

    mutating func union(_ a: Int, _ b: Int) {
        let (x, y) = (root(a), root(b))
        if x != y { parent[max(x, y)] = min(x, y) }
    }
}
