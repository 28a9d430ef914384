import Foundation
import MobilityCore
import Trips

/// GeoJSON for GIS tools (QGIS, geojson.io, geopandas): `staypoints.geojson` (points),
/// `triplegs.geojson` (lines, with the mode's colour in `stroke`, simplestyle-spec, so they
/// draw coloured by mode as they are) and `dwells.geojson` (points at the mean of the fixes
/// inside). Ids are the CSV and store ids.
public struct TripGeoJSON {
    public let result: TripAnalysis.Result
    public var geofences: [String: Geofence]
    private let ids: TripIdentifiers

    public init(result: TripAnalysis.Result, geofences: [Geofence]) {
        self.result = result
        self.geofences = Dictionary(geofences.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        ids = TripIdentifiers(result.devices)
    }

    public static let fileNames = ["staypoints.geojson", "triplegs.geojson", "dwells.geojson"]

    /// One colour per mode, readable on a light map.
    public static let modeColours: [String: String] = [
        "still": "#757575", "walk": "#2e7d32", "bike": "#1565c0", "car": "#c62828", "bus": "#ef6c00",
        "train": "#6a1b9a", "vehicle": "#546e7a", "boat": "#00838f", "airplane": "#4e342e", unknownModeName: "#000000"
    ]

    /// Writes the three files into `folder`, each feature as it is made: a leg's line is never
    /// one string in memory (a year's continuous leg is 750 MB of text).
    public func write(to folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let writers: [(String, (inout PartialFileWriter) throws -> Void)] = [
            ("staypoints.geojson", staypoints(to:)), ("triplegs.geojson", triplegs(to:)), ("dwells.geojson", dwells(to:))
        ]
        for (name, write) in writers {
            var file = try PartialFileWriter(path: (folder as NSString).appendingPathComponent(name))
            file.write(Self.collectionStart)
            try write(&file)
            file.write(Self.collectionEnd)
            try file.finish()
        }
    }

    static func point(_ latitude: Double, _ longitude: Double) -> String {
        String(format: #"{"type":"Point","coordinates":[%.6f,%.6f]}"#, longitude, latitude)
    }

    static let collectionStart = #"{"type":"FeatureCollection","features":["#
    static let collectionEnd = "]}\n"

    /// Writes a feature, after the separator unless it is the collection's `first`: its
    /// geometry as `geometry` writes it, then its properties.
    static func feature(
        to file: inout PartialFileWriter, first: Bool, properties: [String: Any], geometry: (inout PartialFileWriter) throws -> Void
    ) throws {
        let cleaned = properties.compactMapValues { $0 is NSNull ? nil : $0 }
        let json = try JSONSerialization.data(withJSONObject: cleaned, options: [.sortedKeys])
        file.write(first ? #"{"type":"Feature","geometry":"# : ",\n" + #"{"type":"Feature","geometry":"#)
        try geometry(&file)
        file.write(#","properties":"# + String(decoding: json, as: UTF8.self) + "}")
    }

    static func iso(_ seconds: Double) -> String { ISO8601.formatMillis(Timestamp(secondsSince1970: seconds)) }

    func staypoints(to file: inout PartialFileWriter) throws {
        var first = true
        for (deviceIndex, device) in result.devices.enumerated() {
            for (index, stay) in device.staypoints.enumerated() {
                var properties: [String: Any] = [
                    "staypoint_id": ids.staypoint(deviceIndex, index), "device": stay.device, "started_at": Self.iso(stay.startSeconds),
                    "finished_at": Self.iso(stay.endSeconds), "duration_s": (stay.durationSeconds * 10).rounded() / 10,
                    "fixes": stay.fixCount, "is_activity": stay.isActivity
                ]
                if let location = stay.location { properties["location_id"] = TripIdentifiers.location(location) }
                try Self.feature(to: &file, first: first, properties: properties) {
                    $0.write(Self.point(stay.latitudeDegrees, stay.longitudeDegrees))
                }
                first = false
            }
        }
    }

    func triplegs(to file: inout PartialFileWriter) throws {
        var first = true
        for (deviceIndex, device) in result.devices.enumerated() {
            for (index, leg) in device.triplegs.enumerated() {
                let mode = leg.mode?.rawValue ?? unknownModeName
                var properties: [String: Any] = [
                    "tripleg_id": ids.tripleg(deviceIndex, index), "device": leg.device, "travel_mode": mode,
                    "stroke": Self.modeColours[mode] ?? "#000000", "stroke-width": 3,
                    "started_at": Self.iso(leg.startSeconds), "finished_at": Self.iso(leg.endSeconds),
                    "duration_s": (leg.durationSeconds * 10).rounded() / 10, "distance_m": (leg.distanceMeters * 10).rounded() / 10
                ]
                if let trip = leg.trip { properties["trip_id"] = ids.trip(deviceIndex, trip) }
                // A leg by time has no position: a feature with a null geometry (RFC 7946 §3.2).
                try Self.feature(to: &file, first: first, properties: properties) { output in
                    if leg.byTime {
                        output.write("null")
                    } else {
                        try device.writeLine(ofLeg: index, to: &output)
                    }
                }
                first = false
            }
        }
    }

    func dwells(to file: inout PartialFileWriter) throws {
        var first = true
        for (deviceIndex, device) in result.devices.enumerated() {
            for (index, dwell) in device.dwells.enumerated() {
                let centre = dwell.center
                let fence = geofences[dwell.geofenceID]
                let properties: [String: Any] = [
                    "dwell_id": ids.dwell(deviceIndex, index), "device": dwell.device, "geofence_id": dwell.geofenceID,
                    "geofence_name": fence?.name ?? dwell.geofenceID, "geofence_kind": fence?.kind ?? "zone",
                    "started_at": Self.iso(dwell.entrySeconds), "finished_at": Self.iso(dwell.exitSeconds),
                    "duration_s": (dwell.durationSeconds * 10).rounded() / 10, "fixes": dwell.fixesUsed, "closed_by": dwell.closure.rawValue
                ]
                try Self.feature(to: &file, first: first, properties: properties) {
                    $0.write(Self.point(centre.latitudeDegrees, centre.longitudeDegrees))
                }
                first = false
            }
        }
    }
}
