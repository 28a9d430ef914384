import Foundation
import MobilityCore

/// Which outputs may leave the store's folder and which identify people.
///
/// The top of an output folder holds only what publishes: aggregates that count distinct
/// persons and leave out rows under k (`od_matrix.csv`, `od_grid.csv`, `modal_split.csv`,
/// `train_comfort.csv`, `route_comfort.csv`, the heat maps), the report and a GeoPackage of
/// those layers. Every file with a row per person, device, input file, window, staypoint,
/// dwell, location, leg, trip, ride, stop or event goes to `restricted/` beside them, with a
/// `README.txt` that says so, and so does the page that lists files and devices. This is the
/// layout a statistics office's disclosure control asks for: what can be handed on is apart
/// from what must stay with the data's keepers, by folder, so a copy of the published files
/// takes nothing by accident.
///
/// A part of a distributed run writes everything flat into its work folder (nothing there is
/// published); the merge puts the restricted tables in `restricted/` again.
public enum OutputLayout {
    /// The sub-folder of an output folder for the files that identify people.
    public static let restrictedFolderName = StoreLocation.restrictedFolderName

    /// The files that go to `restricted/`: a row per person, device, input file or event.
    public static let restrictedFiles: Set<String> = [
        "modes.csv", "staypoints.csv", "dwells.csv", "locations.csv", "triplegs.csv", "trips.csv", "device_stats.csv",
        "person_days.csv", "untracked.csv", "tours.csv", "person_weights.csv", "review.csv", "person_co2e.csv",
        "rides.csv", "stops.csv", "events.csv", "quarantine.csv", "staypoints.geojson", "triplegs.geojson", "dwells.geojson"
    ]

    /// The files at the top of a run's output folder that publish (besides `report.html` and
    /// `pipeline.gpkg`, and the heat maps' `heatmap*.csv`, `.geojson` and `.png`).
    public static let publishedTables: Set<String> = [
        "od_matrix.csv", "od_grid.csv", "od_zones.csv", "mode_shares.csv", "co2e.csv", "modal_split.csv", "punctuality.csv",
        "train_comfort.csv",
        "route_comfort.csv"
    ]

    /// `folder/restricted`.
    public static func restricted(in folder: String) -> String {
        (folder as NSString).appendingPathComponent(restrictedFolderName)
    }

    /// Where `file` goes in the output folder `folder`.
    public static func path(_ file: String, in folder: String) -> String {
        let base = restrictedFiles.contains(file) ? restricted(in: folder) : folder
        return (base as NSString).appendingPathComponent(file)
    }

    /// The README that heads `restricted/`.
    public static let readme = """
        The files in this folder identify people: each has a row per person, device, input file, \
        window, staypoint, dwell, location, leg, trip, ride, stop or event, with device names, \
        times and places, and pipeline.sqlite, the store, holds every fix. Keep them with the \
        data; do not publish or share them.

        What may be published is in the folder above: report.html, pipeline.gpkg, od_matrix.csv, \
        od_grid.csv, od_zones.csv, mode_shares.csv, modal_split.csv, train_comfort.csv, route_comfort.csv and the heat maps, each \
        counting distinct persons and leaving out what fewer than k persons made. report.html here \
        is the operator's page: every input file, device and ride by name.

        """

    /// Creates `folder/restricted` with its README (rewritten only when it differs), through
    /// `README.txt.partial`, so a run killed mid-write leaves nothing the next one does not
    /// replace. Also removes the `.dat.nosync…` files that Foundation's `.atomic` writes of
    /// earlier versions left in both folders when a run was killed mid-write.
    @discardableResult
    public static func prepareRestricted(in folder: String) throws -> String {
        let restricted = restricted(in: folder)
        try FileManager.default.createDirectory(atPath: restricted, withIntermediateDirectories: true)
        for place in [folder, restricted] {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: place)) ?? [] where name.hasPrefix(".dat.nosync") {
                try? FileManager.default.removeItem(atPath: (place as NSString).appendingPathComponent(name))
            }
        }
        let readmePath = (restricted as NSString).appendingPathComponent("README.txt")
        if FileManager.default.contents(atPath: readmePath) != Data(readme.utf8) {
            try Data(readme.utf8).writeThroughPartial(to: URL(fileURLWithPath: readmePath))
        }
        return restricted
    }

    /// Removes the copies of restricted files that an earlier version wrote at the top of a
    /// store's output folder (they would be published with the rest); returns their names.
    /// Only names this pipeline writes are touched, and only where its store is.
    public static func removeTopLevelCopies(in folder: String) throws -> [String] {
        var removed: [String] = []
        for file in restrictedFiles.sorted() {
            let path = (folder as NSString).appendingPathComponent(file)
            guard FileManager.default.fileExists(atPath: path) else { continue }
            try FileManager.default.removeItem(atPath: path)
            removed.append(file)
        }
        return removed
    }
}
