import Foundation
import MobilityCore

/// GPX 1.1 as phone tracking apps write it: one track, one segment, `ele`, `time`, `hdop`.
enum GPXText {
    /// hdop is accuracy / 5, the factor the pipeline's cleaning uses the other way round.
    static let metersPerHDOP = 5.0

    static func write(_ fixes: [SimulatedFix], device: String, city: City, to path: String) throws {
        let file = try TextFile(path: path)
        try file.write(header(device: device))
        for fix in fixes { try file.write(point(fix)) }
        try file.write("</trkseg></trk>\n</gpx>\n")
        try file.close()
    }

    /// The first tenth of the day and then half a point: an upload cut off mid-transfer.
    static func writeCutOff(_ fixes: [SimulatedFix], device: String, to path: String) throws {
        let kept = fixes.prefix(max(1, fixes.count / 10))
        var text = header(device: device) + kept.map(point).joined()
        text += #"<trkpt lat="48.85"#
        try TextFile.write(text, to: path)
    }

    private static func header(device: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="pipeline simulate" xmlns="http://www.topografix.com/GPX/1/1">
        <metadata><author><name>\(device)</name></author></metadata>
        <trk><name>\(device)</name><trkseg>

        """
    }

    private static func point(_ fix: SimulatedFix) -> String {
        "<trkpt lat=\"\(FixedPoint.text(fix.latitude, digits: 7))\" lon=\"\(FixedPoint.text(fix.longitude, digits: 7))\">"
            + "<ele>35.0</ele><time>\(iso(fix.timeSeconds))</time><hdop>\(FixedPoint.text(fix.accuracyMeters / metersPerHDOP, digits: 1))</hdop></trkpt>\n"
    }
}

/// The city's geofences in the two formats the pipeline reads.
enum GeofenceText {
    static func geojson(city: City, homes: [Place]) -> String {
        var features: [String] = []
        for place in homes + city.works {
            let (lat, lon) = city.coordinates(place.position)
            features.append(
                """
                {"type":"Feature","id":"\(place.id)","properties":{"name":"\(place.name)","kind":"\(place.kind.rawValue)",\
                "radius_m":\(Int(place.radiusMeters))},"geometry":{"type":"Point","coordinates":[\(FixedPoint.text(lon, digits: 6)),\(FixedPoint.text(lat, digits: 6))]}}
                """)
        }
        for shop in city.shops {
            let r = shop.radiusMeters, p = shop.position
            let corners = [(-r, -r), (r, -r), (r, r), (-r, r), (-r, -r)].map {
                city.coordinates(LocalPoint(east: p.east + $0.0, north: p.north + $0.1))
            }
            let ring = corners.map { "[\(FixedPoint.text($0.longitude, digits: 6)),\(FixedPoint.text($0.latitude, digits: 6))]" }.joined(
                separator: ",")
            features.append(
                """
                {"type":"Feature","id":"\(shop.id)","properties":{"name":"\(shop.name)","kind":"shop"},\
                "geometry":{"type":"Polygon","coordinates":[[\(ring)]]}}
                """)
        }
        return "{\"type\":\"FeatureCollection\",\"features\":[\n" + features.joined(separator: ",\n") + "\n]}\n"
    }

    static func stationsCSV(city: City) -> String {
        "id,name,kind,lat,lon,radius_m\n"
            + city.stations.map { station in
                let (lat, lon) = city.coordinates(station.position)
                return
                    "\(station.id),\(station.name),station,\(FixedPoint.text(lat, digits: 6)),\(FixedPoint.text(lon, digits: 6)),\(Int(station.radiusMeters))\n"
            }.joined()
    }
}
