import Foundation
import MobilityCore

/// A GTFS feed with known answers, written for tests: a bus line with stops every 400 m along a
/// street at 48° N, and a subway line 2 km north with three stations (one with an entrance), a
/// gondola route of no kind and a stop without coordinates.
public enum SyntheticGTFS {
    public static let latitude = 48.0, longitude = 2.0
    public static let metresPerDegreeLatitude = Geodesy.earthRadiusMeters * Double.pi / 180
    public static var metresPerDegreeLongitude: Double { metresPerDegreeLatitude * cos(latitude * Double.pi / 180) }

    /// The position `east` metres east and `north` metres north of the street's start.
    public static func position(east: Double, north: Double = 0) -> (Double, Double) {
        (latitude + north / metresPerDegreeLatitude, longitude + east / metresPerDegreeLongitude)
    }

    public static func writeFeed(_ folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        func write(_ name: String, _ lines: [String]) throws {
            try (lines.joined(separator: "\r\n") + "\r\n").write(
                toFile: (folder as NSString).appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        var stops = ["\u{FEFF}stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station"]
        var times = ["trip_id,arrival_time,departure_time,stop_id,stop_sequence"]
        for k in 1...14 {
            let (lat, lon) = position(east: Double(k) * 400, north: 8)
            stops.append("B\(k),\"Main St \(k)\",\(lat),\(lon),0,")
            times.append("bus1,08:\(String(format: "%02d", k)):00,08:\(String(format: "%02d", k)):00,B\(k),\(k)")
        }
        for (k, east) in [0.0, 3000, 6000].enumerated() {
            let (lat, lon) = position(east: east, north: 2000)
            stops.append("S\(k),Station \(k),\(lat),\(lon),1,")
            stops.append("S\(k)P,Station \(k) platform,\(lat),\(lon),0,S\(k)")
            times.append("metro1,09:0\(k):00,09:0\(k):00,S\(k)P,\(k + 1)")
        }
        let (entranceLatitude, entranceLongitude) = position(east: 3000, north: 2150)
        stops.append("S1E,Station 1 entrance,\(entranceLatitude),\(entranceLongitude),2,S1")
        stops.append("X,No coordinates,,,0,")
        try write("stops.txt", stops)
        try write("stop_times.txt", times)
        try write("routes.txt", ["route_id,route_short_name,route_type", "R1,1,3", "M1,M,1", "G,gondola,6"])
        try write("trips.txt", ["route_id,service_id,trip_id,shape_id", "R1,WD,bus1,", "M1,WD,metro1,shM", "G,WD,gondola1,"])
        var shape = ["shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence"]
        for (n, east) in stride(from: 0.0, through: 6000, by: 500).enumerated().reversed() { // out of order on purpose
            let (lat, lon) = position(east: east, north: 2000)
            shape.append("shM,\(lat),\(lon),\(n + 1)")
        }
        try write("shapes.txt", shape)
    }

    /// Two bus routes that meet at stop `C`, 1,200 m north of the street's start: `N` runs north
    /// from `N0` (the start) by `N1` to `C`, `E` east from `C` by `E1` to `E2` (1,200 m east of
    /// `C`); stops 600 m apart. For a ride that changes from one to the other at `C`.
    public static func writeCrossing(_ folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        func write(_ name: String, _ lines: [String]) throws {
            try (lines.joined(separator: "\n") + "\n").write(
                toFile: (folder as NSString).appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let places: [(String, Double, Double)] = [("N0", 0, 0), ("N1", 0, 600), ("C", 0, 1200), ("E1", 600, 1200), ("E2", 1200, 1200)]
        try write(
            "stops.txt",
            ["stop_id,stop_name,stop_lat,stop_lon"]
                + places.map { id, east, north in
                    let (lat, lon) = position(east: east, north: north)
                    return "\(id),Stop \(id),\(lat),\(lon)"
                })
        try write("routes.txt", ["route_id,route_short_name,route_type", "N,North,3", "E,East,3"])
        try write("trips.txt", ["route_id,service_id,trip_id,direction_id", "N,WD,n1,0", "E,WD,e1,0"])
        try write(
            "stop_times.txt",
            ["trip_id,arrival_time,departure_time,stop_id,stop_sequence"]
                + ["N0", "N1", "C"].enumerated().map { "n1,08:0\($0.offset):00,08:0\($0.offset):00,\($0.element),\($0.offset + 1)" }
                + ["C", "E1", "E2"].enumerated().map { "e1,08:1\($0.offset):00,08:1\($0.offset):00,\($0.element),\($0.offset + 1)" })
    }

    /// A timetabled feed, `town` (Town Buses, Europe/Berlin, weekdays of 2024): a street running north from the origin with stops `N0` … `N4` every 600 m: route `L`
    /// (local) calls at all five both ways, route `X` (express) only at `N0` and `N4`, northbound.
    public static func writeTown(_ folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        func write(_ name: String, _ text: String) throws {
            try text.write(toFile: (folder as NSString).appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        var stops = "stop_id,stop_name,stop_lat,stop_lon\n"
        for k in 0...4 {
            let (lat, lon) = SyntheticGTFS.position(east: 0, north: Double(k) * 600)
            stops += "N\(k),North \(k),\(lat),\(lon)\n"
        }
        var times = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        func minutes(_ hour: String, from minute: Int, _ count: Int) -> [String] { (0..<count).map { "\(hour):\(minute + $0):00" } }
        let schedule: [(String, [Int], [String])] = [
            ("up", [0, 1, 2, 3, 4], minutes("08", from: 10, 5)), ("down", [4, 3, 2, 1, 0], minutes("08", from: 10, 5)),
            ("up2", [0, 1, 2, 3, 4], minutes("09", from: 10, 5)), ("x", [0, 4], minutes("08", from: 10, 2)),
            // After midnight of its service day; N2 is no timepoint (its times left out).
            ("late", [0, 1, 2, 3, 4], ["24:30:00", "24:31:00", "", "24:33:00", "24:34:00"])
        ]
        for (trip, calls, at) in schedule {
            for (sequence, stop) in calls.enumerated() { times += "\(trip),\(at[sequence]),\(at[sequence]),N\(stop),\(sequence + 1)\n" }
        }
        try write("agency.txt", "agency_id,agency_name,agency_timezone\nTOWN,Town Buses,Europe/Berlin\n")
        try write("stops.txt", stops)
        try write("stop_times.txt", times)
        try write(
            "routes.txt", "route_id,agency_id,route_short_name,route_long_name,route_type\nL,TOWN,7,Local,3\nX,TOWN,,Express North,3\n")
        try write(
            "trips.txt", "route_id,service_id,trip_id,direction_id\nL,WD,up,0\nL,WD,down,1\nL,WD,up2,0\nX,WD,x,0\nL,WD,late,0\n")
        try write(
            "calendar.txt",
            "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWD,1,1,1,1,1,0,0,20240101,20241231\n")
    }

    /// 2024-03-05, a Tuesday, in Berlin (UTC+1): seconds since 1970 of `hour`:`minute`:`second` there.
    public static func tuesday(_ hour: Double, _ minute: Double, _ second: Double = 0) -> Double {
        Double(ISO8601.days(year: 2024, month: 3, day: 5)) * 86_400 + hour * 3_600 + minute * 60 + second - 3_600
    }

}
