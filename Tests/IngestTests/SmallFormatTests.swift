import Foundation
import Ingest
import MobilityCore
import TestSupport
import Testing

@Suite struct PLTAndLabelTests {
    @Test func readsGeoLifePLTWithFeetAndMissingAltitude() throws {
        let folder = try TemporaryFolder()
        let text = """
            Geolife trajectory\r\nWGS 84\r\nAltitude is in Feet\r\nReserved 3\r\n0,2,255,My Track,0,0,2,8421376\r\n0\r
            39.984702,116.318417,0,492,39744.1201851852,2008-10-23,02:53:04\r
            39.984683,116.31845,0,-777,39744.1202546296,2008-10-23,02:53:10\r

            """
        let (result, sink) = try ingestFile(try folder.write("000/Trajectory/20081023025304.plt", text), root: folder.path)
        #expect(result.format == .plt && sink.fixes.count == 2)
        #expect(sink.fixes[0].time == ISO8601.parse("2008-10-23T02:53:04Z"))
        #expect(abs((sink.fixes[0].elevationMeters ?? 0) - 149.9616) < 1e-9 && sink.fixes[1].elevationMeters == nil)
        #expect(result.device == "000", "GeoLife's <user>/Trajectory/ names the user")
    }

    @Test func readsGeoLifeLabelsWithOverlapsAndCRLF() throws {
        let folder = try TemporaryFolder()
        let text =
            "Start Time\tEnd Time\tTransportation Mode\r\n2008/04/02 11:24:21\t2008/04/02 11:50:45\tbus\r\n"
            + "2008/04/02 11:40:00\t2008/04/02 12:00:00\ttaxi\r\n2008/04/03 01:00:00\t2008/04/02 01:00:00\twalk\r\n"
            + "2008/04/04 01:00:00\t2008/04/04 02:00:00\thovercraft\r\n"
        let (result, _) = try ingestFile(try folder.write("010/labels.txt", text), root: folder.path)
        #expect(result.format == .geoLifeLabels && result.device == "010")
        #expect(result.labels.map(\.mode) == [.bus, .car, nil])
        #expect(result.labels[1].start < result.labels[0].end, "overlapping intervals are kept as written")
        #expect(result.dropped.counts == [.timeBackwards: 1])
    }

    @Test func readsGenericLabelCSV() throws {
        let folder = try TemporaryFolder()
        let text =
            "device,start,end,mode\nalice,2023-11-14T22:00:00Z,2023-11-14T22:10:00Z,Walking\n,1700000000,1700000600,car\nbob,never,1700000600,car\n"
        let (result, _) = try ingestFile(try folder.write("labels.csv", text))
        #expect(result.format == .labelsCSV)
        #expect(result.labels.map(\.device) == ["alice", "labels"])
        #expect(result.labels.map(\.mode) == [.walk, .car])
        #expect(result.dropped.counts == [.invalidTime: 1])
    }
}

@Suite struct GeofenceAndCheckInTests {
    @Test func readsGeoJSONPolygonsMultiPolygonsAndCircles() throws {
        let folder = try TemporaryFolder()
        let json = """
            {"type":"FeatureCollection","features":[
             {"type":"Feature","id":"home","properties":{"name":"Home","kind":"home","radius_m":100},"geometry":{"type":"Point","coordinates":[2.35,48.85]}},
             {"type":"Feature","properties":{"id":"park","name":"Park","kind":"zone"},"geometry":{"type":"Polygon","coordinates":[[[2.3,48.8],[2.4,48.8],[2.4,48.9],[2.3,48.8]]]}},
             {"type":"Feature","properties":{"name":"Campus"},"geometry":{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]]],[[[2,2],[3,2],[3,3],[2,2]]]]}},
             {"type":"Feature","properties":{"name":"no radius"},"geometry":{"type":"Point","coordinates":[2.35,48.85]}},
             {"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}}
            ]}
            """
        let (result, _) = try ingestFile(try folder.write("zones.geojson", json))
        #expect(result.geofences.map(\.id) == ["home", "park", "feature3"])
        #expect(result.geofences.map(\.shape.kindName) == ["circle", "polygon", "multipolygon"])
        #expect(result.geofences[0].shape == .circle(latitudeDegrees: 48.85, longitudeDegrees: 2.35, radiusMeters: 100))
        #expect(result.dropped.counts == [.malformedRow: 2])
    }

    @Test func invalidJSONIsAnInputError() throws {
        let folder = try TemporaryFolder()
        #expect(throws: InputError.self) { _ = try ingestFile(try folder.write("bad.geojson", "{\"type\": ")) }
    }

    @Test func readsCircleCSV() throws {
        let folder = try TemporaryFolder()
        let text = "id,name,kind,lat,lon,radius_m\nst1,Central,station,48.84,2.37,150\nx,Bad,zone,95,2,10\n"
        let (result, _) = try ingestFile(try folder.write("fences.csv", text))
        #expect(result.format == .geofenceCSV && result.geofences.map(\.kind) == ["station"])
        #expect(result.dropped.counts == [.invalidCoordinate: 1])
    }

    @Test func readsCheckInsAndRejectsOutOfRangeRatings() throws {
        let folder = try TemporaryFolder()
        let text = """
            device,train,from_station,to_station,checkin_time,scheduled_departure,scheduled_arrival,cleanliness,odours_temperature,crowding,service,noise_db,comment
            alice,IC 512,Central,Harbour,2023-11-14T08:00:00Z,2023-11-14T08:02:00Z,2023-11-14T08:40:00Z,4,3,7,5,68.5,"late, but clean"
            bob,IC 512,Central,Harbour,not-a-time,,,,,,,,
            carol,R 7,North,Central,2023-11-14T09:00:00Z,,,,,,,,
            """
        let (result, _) = try ingestFile(try folder.write("checkins.csv", text))
        #expect(result.format == .checkIns && result.checkIns.count == 2)
        let first = result.checkIns[0]
        #expect(first.cleanliness == 4 && first.odoursTemperature == 3 && first.crowding == nil && first.service == 5)
        #expect(first.noiseDecibels == 68.5 && first.comment == "late, but clean" && first.line == 2)
        #expect(first.scheduledArrival == ISO8601.parse("2023-11-14T08:40:00Z"))
        #expect(result.dropped.counts == [.valueOutOfRange: 1, .invalidTime: 1])
    }
}

@Suite struct DeviceIdentityTests {
    @Test func manifestWinsThenNamePatternThenFolder() throws {
        let folder = try TemporaryFolder()
        let csv = "time,ax,ay,az\n1700000000,0,0,9.8\n1700000001,0,0,9.8\n"
        let a = try folder.write("raw/sensorfile_andrea_Walking_1480485018989.csv", csv)
        let b = try folder.write("raw/sensorfile_Damiano_Car_1485092389164.csv", csv)
        let c = try folder.write("raw/other.csv", csv)
        let manifest = try folder.write("manifest.csv", "path,device,mode\nraw/other.csv,phone-7,bike\n")
        var devices = try DeviceResolver(namePattern: #"sensorfile_(?<device>[^_]+)_(?<mode>[^_]+)_\d+"#)
        var dropped = DropCounts()
        try devices.manifest.load(path: manifest, dropped: &dropped)
        let results = try [a, b, c].map { try ingestFile($0, root: folder.path, devices: devices).0 }
        #expect(results.map(\.device) == ["andrea", "Damiano", "phone-7"])
        #expect(results.map { $0.labels.last?.mode } == [.walk, .car, .bike])
        #expect(results.map { $0.labels.last?.source } == ["name_pattern", "name_pattern", "manifest"])
        #expect(try ingestFile(c, root: folder.path).0.device == "raw", "without manifest: the folder")
    }

    @Test func aPatternWithoutNamedGroupsIsRefused() {
        let thrown1 = #expect(throws: PipelineError.self) { try DeviceResolver(namePattern: "sensorfile_(.*)") }
        #expect(thrown1?.code == .invalidIdentity)
        let thrown2 = #expect(throws: PipelineError.self) { try DeviceResolver(namePattern: "(?<device>") }
        #expect(thrown2?.code == .invalidIdentity)
    }
}
