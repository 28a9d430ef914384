import Foundation
import HeatMaps
import MobilityCore
import Publication
import Reports
import Store
import Trips

/// `releases/<window>/`: the trip tables (`od_matrix.csv`, `od_grid.csv`, `modal_split.csv`)
/// and the heat maps of the fixes of those trips (`heatmap.csv`, `.geojson`, `.png`) of each
/// calendar window that closed since the last run, each written once and never again
/// (`ReleaseWindows`: the defence against differencing nightly tables; docs/privacy.md). The
/// store keeps which windows and trips were released. Wiring only: which trips a window holds
/// is `ReleaseWindows`'s, the tables are the single run's code on those trips.
public struct ReleaseRun {
    public var store: PipelineStore
    public var outputFolder: String
    public var release: PipelineConfiguration.Release
    public var heatMap: HeatMapParameters
    public var calendar: CalendarKeys
    /// The bands of the local day the modal split is cut by.
    public var bands: TimeBands

    public static let folderName = "releases"

    public init(
        store: PipelineStore, outputFolder: String, release: PipelineConfiguration.Release, heatMap: HeatMapParameters,
        calendar: CalendarKeys, bands: TimeBands = TimeBands()
    ) {
        (self.store, self.outputFolder, self.release, self.heatMap, self.calendar) = (store, outputFolder, release, heatMap, calendar)
        self.bands = bands
    }

    public struct Summary: Sendable, Encodable, Equatable {
        /// The window kind (`day`, `week`, `month`), or null when no release is configured.
        @NullEncodable public var period: String?
        /// Windows released by this run, and the trips they held.
        public var released: [String] = []
        public var trips = 0
        /// Windows released by earlier runs (never written again).
        public var releasedBefore = 0
        /// Trips not released yet: in windows still open.
        public var pendingTrips = 0
        enum CodingKeys: String, CodingKey {
            case period, released, trips, releasedBefore = "released_before", pendingTrips = "pending_trips"
        }
    }

    public func run(progress: ProgressReporter) throws -> Summary {
        guard let period = release.window else { return Summary() }
        var summary = Summary(period: period.rawValue)
        let trips = try store.releaseTrips()
        let before = try store.releases()
        summary.releasedBefore = before.windows.count
        let releasedTrips = Set(before.trips.map { ReleaseWindows.ReleasedTrip(device: $0.device, startSeconds: $0.startSeconds) })
        let keys = trips.map { ReleaseWindows.ReleasedTrip(device: $0.device, startSeconds: $0.startSeconds) }
        let due = ReleaseWindows.due(
            trips: keys, releasedTrips: releasedTrips, releasedWindows: before.windows,
            latestSeconds: trips.map(\.endSeconds).max() ?? 0, graceSeconds: release.graceHours * 3600,
            period: period, calendar: calendar)
        let geofences = Dictionary(try store.geofences().map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        let folder = (outputFolder as NSString).appendingPathComponent(Self.folderName)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (window, indices) in due {
            let members = indices.map { trips[$0] }
            let target = (folder as NSString).appendingPathComponent(window.id)
            if FileManager.default.fileExists(atPath: target) {
                // A release is final: a folder of this window (from a store since rebuilt) is never replaced.
                progress.log("release \(window.id): \(target) exists and is final; not written again")
            } else {
                try write(window, members, to: target, geofences: geofences)
            }
            try store.recordRelease(
                window: window.id, period: period.rawValue, startSeconds: window.startSeconds, endSeconds: window.endSeconds,
                trips: members.map { ($0.device, $0.startSeconds) }, releasedSeconds: Date().timeIntervalSince1970)
            summary.released.append(window.id)
            summary.trips += members.count
        }
        let releasedNow = Set(due.flatMap(\.trips))
        summary.pendingTrips = keys.indices.filter { !releasedTrips.contains(keys[$0]) && !releasedNow.contains($0) }.count
        progress.log(Self.text(summary))
        return summary
    }

    public static func text(_ s: Summary) -> String {
        guard let period = s.period else { return "releases: none configured (release.window)" }
        return
            "releases (\(period)): \(s.released.isEmpty ? "no window closed" : s.released.joined(separator: ", ") + " released with \(s.trips) trips"); "
            + "\(s.releasedBefore) released before and final; \(s.pendingTrips) trips wait for their window to close"
    }

    /// One window's tables, written beside and moved into place, so a killed run leaves no
    /// half release (it is written again by the next run, as the store has not recorded it).
    func write(_ window: ReleaseWindows.Window, _ members: [PipelineStore.ReleaseTrip], to target: String, geofences: [String: Geofence])
        throws
    {
        let partial = target + ".partial"
        try? FileManager.default.removeItem(atPath: partial)
        try FileManager.default.createDirectory(atPath: partial, withIntermediateDirectories: true)
        func path(_ name: String) -> String { (partial as NSString).appendingPathComponent(name) }
        let k = heatMap.minimumPersons
        let calendars = try store.localCalendars(dataset: calendar)
        let groups = ODGroup.groups(
            members.map {
                ODGroup.Member(
                    device: $0.device, person: $0.person, origin: $0.originGeofence, destination: $0.destinationGeofence,
                    durationSeconds: $0.durationSeconds, distanceMeters: $0.distanceMeters, mainMode: $0.mainMode,
                    band: bands.name(startSeconds: $0.startSeconds, calendar: calendars.person($0.person)))
            })
        let totals = ModalTotal.totals(
            trips: members.map {
                ModalTotal.Entry(person: $0.person, startSeconds: $0.startSeconds, mode: $0.mainMode, purpose: $0.purpose)
            },
            legs: members.flatMap(\.legs).map {
                ModalTotal.Entry(
                    person: $0.person, startSeconds: $0.startSeconds, mode: $0.mode,
                    distanceMeters: $0.distanceMeters, durationSeconds: $0.durationSeconds, purpose: $0.purpose)
            }, calendars: calendars, bands: bands)
        let published = TripPublication(
            odGroups: groups, modalTotals: totals, bands: bands, privacy: PrivacyParameters(k: k), geofences: geofences.count)
        try TripTables.odMatrix(published.odMatrix, geofences: geofences).write(to: path(OutputSchema.odMatrix.file))
        try TripTables.modalSplit(published.modalSplit).write(to: path(OutputSchema.modalSplit.file))
        // Audited against the window's modal split, which counts the same trips.
        let grid = ODGrid(
            members.map {
                ODGrid.Trip(
                    device: $0.device, person: $0.person, origin: $0.origin, destination: $0.destination,
                    durationSeconds: $0.durationSeconds,
                    distanceMeters: $0.distanceMeters, mainMode: $0.mainMode)
            }, cellMeters: heatMap.odCellMeters, minimumPersons: k, coarserLevels: heatMap.odCoarserLevels,
            margins: [published.margins])
        try TripTables.odGrid(grid).write(to: path(OutputSchema.odGrid.file))
        try writeHeatMaps(members, window: window.id, to: partial)
        let readme = ReleaseWindows.readme(window, minimumPersons: k, calendar: calendar)
        try Data(readme.utf8).write(to: URL(fileURLWithPath: path("README.txt")))
        try FileManager.default.moveItem(atPath: partial, toPath: target)
    }

    /// The heat maps of the fixes that lie within the window's trips, by the single run's code
    /// (`HeatMapLayers`) and k: each trip, and so each of its fixes, is in one release at most.
    func writeHeatMaps(_ members: [PipelineStore.ReleaseTrip], window: String, to folder: String) throws {
        let grid = HeatGrid(cellMeters: heatMap.cellMeters)
        var layers = HeatMapLayers(grid: grid, filter: try heatMap.filter(calendar: calendar))
        let calendars = try store.localCalendars(dataset: calendar)
        let byDevice = Dictionary(grouping: members, by: \.device)
        for device in byDevice.keys.sorted(by: { (byDevice[$0]![0].person, $0) < (byDevice[$1]![0].person, $1) }) {
            let spans = byDevice[device]!.map { ($0.startSeconds, $0.endSeconds) }.sorted { $0 < $1 }
            // The device's fixes of the window's trips only: a window costs its own fixes, not the history's.
            let points = ReleaseWindows.within(spans, try store.trackPoints(named: device, in: spans[0].0...spans.map(\.1).max()!))
            guard !points.isEmpty else { continue }
            layers.add(
                DeviceTrack(device: device, points: points), intervals: try store.storedIntervals(device: device),
                person: byDevice[device]![0].person, calendar: calendars.device(device))
        }
        let (rows, cells) = layers.published(
            minimumPersons: heatMap.minimumPersons, filterDescription: heatMap.filterDescription + " of the trips of " + window)
        _ = try HeatMapFiles(maps: rows, grid: grid).write(to: folder, cells: cells)
    }
}
