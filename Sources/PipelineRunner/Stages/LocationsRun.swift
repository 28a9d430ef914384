import Foundation
import Reports
import Store
import Trips

/// `pipeline locations`: clusters every staypoint of a store into locations again, in one
/// pass over all devices, and writes `locations.csv`. The step of a distributed run (spark/)
/// that locations clustered across devices (`trips.locations.scope: dataset`) need: a part
/// sees only its own devices, and per-part clusters cannot be merged into the data set's.
///
/// The staypoints are read in the order a single run holds them (id order: devices, then
/// time) and clustered by `LocationClusterer`, the single run's code, so locations, their
/// numbers and every staypoint's and trip's location id are the single run's. With
/// `linksFolder`, the clusters come from the spatial tiles' links instead
/// (`LocationClusterer.cluster(_:tileLinks:)`): the same locations, from work done per tile.
public struct LocationsRun {
    public var storePath: String
    public var outputFolder: String
    public var parameters = LocationParameters()
    /// A distributed run's tile links (`part-*.csv` files of `kind,a,b`, ids the store's
    /// staypoint ids; `LocationTileLinks` writes them): the clusters are joined from them
    /// instead of found in one pass. Nil: one pass over every staypoint.
    public var linksFolder: String?

    public init(storePath: String, outputFolder: String) {
        (self.storePath, self.outputFolder) = (storePath, outputFolder)
    }

    public struct Summary: Sendable, Encodable {
        public var scope = "", staypoints = 0, locations = 0
        /// Staypoints in no location (DBSCAN noise, with a minimum above 1).
        public var unclustered = 0
        public var seconds = 0.0
        public var files: [String] = []
        enum CodingKeys: String, CodingKey { case scope, staypoints, locations, unclustered, seconds, files }
    }

    public func run(progress: ProgressReporter) throws -> Summary {
        let started = Date()
        return try StoreSession.run(storePath: storePath, progress: progress) { store in
            let rows = try store.storedStaypoints()
            var staypoints = rows.map {
                Staypoint(
                    device: $0.device, startSeconds: $0.startSeconds, endSeconds: $0.endSeconds, latitudeDegrees: $0.latitudeDegrees,
                    longitudeDegrees: $0.longitudeDegrees)
            }
            let clusterer = LocationClusterer(parameters: parameters)
            let locations =
                try linksFolder.map { try clusterer.cluster(&staypoints, tileLinks: LocationTileLinks.links(in: $0, ids: rows.map(\.id))) }
                ?? clusterer.cluster(&staypoints)
            var locationIDs: [Int: Int] = [:]
            for (row, stay) in zip(rows, staypoints) {
                if let location = stay.location { locationIDs[row.id] = TripIdentifiers.location(location) }
            }
            try store.replaceLocations(
                locations.enumerated().map { index, location in
                    TripResultRows.Location(
                        id: TripIdentifiers.location(index), device: location.device, number: location.number,
                        latitudeDegrees: location.latitudeDegrees, longitudeDegrees: location.longitudeDegrees,
                        staypoints: location.staypoints, devices: location.devices, totalStaySeconds: location.totalStaySeconds)
                }, locationIDs: locationIDs)
            try OutputLayout.prepareRestricted(in: outputFolder)
            let file = OutputLayout.path("locations.csv", in: outputFolder)
            try TripTables.locations(locations).write(to: file)
            if rows.isEmpty { progress.log("locations: the store holds no staypoint, so locations.csv lists no location") }
            var summary = Summary()
            (summary.scope, summary.staypoints, summary.locations) = (parameters.scope.rawValue, rows.count, locations.count)
            summary.unclustered = rows.count - locationIDs.count
            (summary.seconds, summary.files) = (Date().timeIntervalSince(started), [file])
            return summary
        }
    }
}
