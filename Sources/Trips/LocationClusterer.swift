import Foundation
import MobilityCore

/// DBSCAN (Ester et al. 1996, KDD) over staypoint positions with great-circle distances, as
/// trackintel's `generate_locations`: with `minimumStaypoints` 1 every staypoint belongs to a
/// location; above 1, staypoints in sparse places stay without one (DBSCAN noise).
///
/// Neighbours are found in a latitude-sorted sweep (only staypoints within `epsilonMeters` of
/// latitude are compared), and compared by chord length on the unit sphere.
///
/// - Complexity: O(n log n + n·k) for n staypoints with k of them in a latitude band of
///   width 2ε; clusters are numbered in the order of their first staypoint, so results do not
///   depend on the input order within a device's time order.
public struct LocationClusterer: Sendable {
    public var parameters: LocationParameters

    public init(parameters: LocationParameters = LocationParameters()) {
        self.parameters = parameters
    }

    /// Sets each staypoint's `location` (an index into the returned locations).
    public func cluster(_ staypoints: inout [Staypoint]) -> [Location] {
        switch parameters.scope {
        case .dataset:
            return clusterGroup(&staypoints, indices: Array(staypoints.indices), device: nil, offset: 0)
        case .device:
            var byDevice: [String: [Int]] = [:]
            for (index, stay) in staypoints.enumerated() { byDevice[stay.device, default: []].append(index) }
            var locations: [Location] = []
            for device in byDevice.keys.sorted() {
                locations += clusterGroup(&staypoints, indices: byDevice[device]!, device: device, offset: locations.count)
            }
            return locations
        }
    }

    private func clusterGroup(_ staypoints: inout [Staypoint], indices: [Int], device: String?, offset: Int) -> [Location] {
        let order = Self.order(staypoints, indices)
        let points = order.map {
            TrackPoint(
                timeSeconds: 0, latitudeDegrees: staypoints[$0].latitudeDegrees,
                longitudeDegrees: staypoints[$0].longitudeDegrees)
        }
        return assign(dbscan(points), order: order, to: &staypoints, device: device, offset: offset)
    }

    /// The staypoints `indices` in the order clusters are seeded and numbered: start, then device.
    static func order(_ staypoints: [Staypoint], _ indices: [Int]) -> [Int] {
        indices.sorted { (staypoints[$0].startSeconds, staypoints[$0].device) < (staypoints[$1].startSeconds, staypoints[$1].device) }
    }

    /// Locations from cluster numbers (`labels[position]`, numbered by first appearance in
    /// `order`; nil: none), each staypoint's `location` set.
    func assign(_ labels: [Int?], order: [Int], to staypoints: inout [Staypoint], device: String?, offset: Int) -> [Location] {
        var members: [[Int]] = []
        for (position, label) in labels.enumerated() {
            guard let label else { continue }
            if label == members.count { members.append([]) }
            members[label].append(order[position])
            staypoints[order[position]].location = offset + label
        }
        return members.enumerated().map { number, indices in
            let centre = StaypointDetector.centroid(
                TrackPoints(
                    indices.map {
                        TrackPoint(
                            timeSeconds: 0, latitudeDegrees: staypoints[$0].latitudeDegrees,
                            longitudeDegrees: staypoints[$0].longitudeDegrees)
                    }))
            return Location(
                device: device, number: number + 1, latitudeDegrees: centre.latitudeDegrees,
                longitudeDegrees: centre.longitudeDegrees, staypoints: indices.count,
                devices: Set(indices.map { staypoints[$0].device }).count,
                totalStaySeconds: indices.reduce(0) { $0 + staypoints[$1].durationSeconds })
        }
    }

    /// Cluster number of each point (numbered in order of first appearance), nil for noise.
    func dbscan(_ points: [TrackPoint]) -> [Int?] {
        let neighbours = neighbourLists(points)
        var labels = [Int?](repeating: nil, count: points.count)
        var visited = [Bool](repeating: false, count: points.count)
        var clusters = 0
        for seed in points.indices where !visited[seed] && neighbours[seed].count >= parameters.minimumStaypoints {
            var frontier = [seed]
            visited[seed] = true
            while let point = frontier.popLast() {
                labels[point] = clusters
                guard neighbours[point].count >= parameters.minimumStaypoints else { continue }
                for other in neighbours[point] where !visited[other] {
                    visited[other] = true
                    frontier.append(other)
                }
            }
            clusters += 1
        }
        return renumberedByFirstAppearance(labels)
    }

    /// Indices within `epsilonMeters` of each point, the point itself included.
    func neighbourLists(_ points: [TrackPoint]) -> [[Int]] {
        let vectors = UnitVectors(points)
        let chordSquaredThreshold = pow(2 * sin(parameters.epsilonMeters / (2 * Geodesy.earthRadiusMeters)), 2)
        let latitudeBand = parameters.epsilonMeters / (Geodesy.earthRadiusMeters * .pi / 180) * 1.01
        let byLatitude = points.indices.sorted { points[$0].latitudeDegrees < points[$1].latitudeDegrees }
        var neighbours = [[Int]](repeating: [], count: points.count)
        for (rank, index) in byLatitude.enumerated() {
            neighbours[index].append(index)
            var other = rank + 1
            while other < byLatitude.count,
                points[byLatitude[other]].latitudeDegrees - points[index].latitudeDegrees <= latitudeBand
            {
                let candidate = byLatitude[other]
                if vectors.chordSquared(index, candidate) <= chordSquaredThreshold {
                    neighbours[index].append(candidate)
                    neighbours[candidate].append(index)
                }
                other += 1
            }
        }
        return neighbours
    }

    func renumberedByFirstAppearance(_ labels: [Int?]) -> [Int?] {
        var mapping: [Int: Int] = [:]
        return labels.map { label in
            guard let label else { return nil }
            if let mapped = mapping[label] { return mapped }
            mapping[label] = mapping.count
            return mapping[label]
        }
    }
}

/// Fixes as points on the unit sphere, in three flat arrays.
struct UnitVectors {
    private var x: [Double], y: [Double], z: [Double]

    init(_ points: [TrackPoint]) {
        let radians = Double.pi / 180
        x = [Double](repeating: 0, count: points.count)
        y = x
        z = x
        for (index, point) in points.enumerated() {
            let latitude = point.latitudeDegrees * radians, longitude = point.longitudeDegrees * radians
            let cosLatitude = cos(latitude)
            x[index] = cosLatitude * cos(longitude)
            y[index] = cosLatitude * sin(longitude)
            z[index] = sin(latitude)
        }
    }

    /// Squared straight-line distance between fixes `a` and `b` through the unit sphere.
    @inline(__always)
    func chordSquared(_ a: Int, _ b: Int) -> Double {
        let dx = x[a] - x[b], dy = y[a] - y[b], dz = z[a] - z[b]
        return dx * dx + dy * dy + dz * dz
    }
}
