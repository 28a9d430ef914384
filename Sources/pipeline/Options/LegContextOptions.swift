import ArgumentParser
import Features
import Fusion
import Ingest
import MobilityCore
import PipelineRunner

/// `--geofences`: the transit context of GPS legs, for `train`, `evaluate` and `classify`.
struct LegContextOptions: ParsableArguments {
    @Option(
        name: .customLong("geofences"),
        help: ArgumentHelp(
            "Geofences (.geojson, or CSV id,name,kind,lat,lon,radius_m) whose kinds station, bus_stop, tram_stop and rail give GPS legs the distances of their ends from transit. Default: none.",
            valueName: "file"))
    var geofencesPath: String?

    /// The geofences of `--geofences`, or none.
    func geofences() throws -> [Geofence] {
        guard let path = geofencesPath else { return [] }
        var dropped = DropCounts()
        let geoJSON = path.lowercased().hasSuffix(".geojson") || path.lowercased().hasSuffix(".json")
        let fences =
            geoJSON
            ? try GeofenceReader.readGeoJSON(path: path, dropped: &dropped) : try GeofenceReader.readCSV(path: path, dropped: &dropped)
        guard !fences.isEmpty else { throw ValidationError("--geofences \(path): no geofence could be read") }
        return fences
    }

    /// Leg features with the transit context of `--geofences`.
    func legFeatures(progress: ProgressReporter) throws -> LegFeatures {
        let fences = try geofences()
        let transit = fences.filter { TransitGeofences.kinds.contains($0.kind) }.count
        if geofencesPath != nil {
            progress.log(
                "GPS legs: \(transit) of \(fences.count) geofences are transit (kinds \(TransitGeofences.kinds.sorted().joined(separator: ", ")))"
            )
        }
        return TransitGeofences.legFeatures(fences)
    }
}
