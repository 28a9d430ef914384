import Foundation
import MobilityCore

/// Builds GPX documents with known contents, in the variants real files come in.
public struct GPXBuilder {
    public struct Point {
        public var latitude: Double
        public var longitude: Double
        public var time: Timestamp?
        public var elevation: Double?
        public var hdop: Double?
        /// Extra child elements written verbatim inside the point.
        public var extra: String

        public init(
            _ latitude: Double, _ longitude: Double, time: Timestamp? = nil, elevation: Double? = nil,
            hdop: Double? = nil, extra: String = ""
        ) {
            self.latitude = latitude
            self.longitude = longitude
            self.time = time
            self.elevation = elevation
            self.hdop = hdop
            self.extra = extra
        }
    }

    public var version = "1.1"
    public var declaration = true
    public var encoding = "UTF-8"
    public var rootAttributes = #"xmlns="http://www.topografix.com/GPX/1/1""#
    public var metadata = ""
    /// Tracks, each a list of segments of points.
    public var tracks: [[[Point]]] = []
    public var routes: [[Point]] = []
    public var waypoints: [Point] = []

    public init() {}

    public var text: String {
        var xml = declaration ? #"<?xml version="1.0" encoding="\#(encoding)"?>"# + "\n" : ""
        xml += #"<gpx version="\#(version)" creator="GPXBuilder" \#(rootAttributes)>"# + "\n"
        xml += metadata
        for point in waypoints { xml += element("wpt", point) }
        for route in routes {
            xml += "<rte>\n" + route.map { element("rtept", $0) }.joined() + "</rte>\n"
        }
        for track in tracks {
            xml += "<trk><name>track</name>\n"
            for segment in track { xml += "<trkseg>\n" + segment.map { element("trkpt", $0) }.joined() + "</trkseg>\n" }
            xml += "</trk>\n"
        }
        return xml + "</gpx>\n"
    }

    private func element(_ name: String, _ point: Point) -> String {
        var xml = #"  <\#(name) lat="\#(point.latitude)" lon="\#(point.longitude)">"#
        if let elevation = point.elevation { xml += "<ele>\(elevation)</ele>" }
        if let time = point.time { xml += "<time>\(ISO8601.format(time))</time>" }
        if let hdop = point.hdop { xml += "<hdop>\(hdop)</hdop>" }
        return xml + point.extra + "</\(name)>\n"
    }

    /// A straight walk of `count` fixes, one per `intervalSeconds`, `stepMeters` apart going north.
    public static func walk(
        count: Int, start: Timestamp = Timestamp(secondsSince1970: 1_700_000_000),
        intervalSeconds: Double = 1, stepMeters: Double = 1.4,
        latitude: Double = 48.0, longitude: Double = 2.0
    ) -> [Point] {
        let degreesPerMeter = 1 / 111_195.0
        return (0..<count).map {
            Point(
                latitude + Double($0) * stepMeters * degreesPerMeter, longitude,
                time: start.adding(seconds: Double($0) * intervalSeconds), elevation: 35)
        }
    }
}
