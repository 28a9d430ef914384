/// A transport mode. The product's core modes are `still, walk, bike, car`; labelled data sets
/// bring more (TMD has `train` and `bus`, GeoLife `boat` and `airplane`). `vehicle` is the
/// coarse truth when the evidence says a motorised vehicle and not which: a phone's activity
/// recognition (`IN_VEHICLE`), or a leg whose type no source is sure of.
public enum Mode: String, Hashable, Sendable, CaseIterable, Comparable, Codable {
    case still, walk, bike, car, bus, train, vehicle, boat, airplane

    public static func < (lhs: Mode, rhs: Mode) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// The mode a data set's label names, through `ModeNames.table`; nil when unknown.
    public init?(labelName: String) {
        guard let mode = ModeNames.table[ModeNames.normalise(labelName)] else { return nil }
        self = mode
    }
}

/// The one table that maps the mode names found in data sets onto `Mode`.
///
/// Keys are lower-case with spaces, dashes and underscores removed. Sources: GeoLife
/// `labels.txt` (walk, bike, bus, car, taxi, subway, train, airplane, boat, run, motorcycle),
/// TMD file names (Walking, Car, Still, Train, Bus), GeoTecINIT labels (SEATED, STANDING_UP,
/// WALKING, TURNING, SITTING_DOWN), MobilityNet's (WALKING, BICYCLING, E_BIKE, ESCOOTER, CAR,
/// BUS, LIGHT_RAIL, TRAIN, SUBWAY, STOPPED), Sensor Logger and common spellings. Choices that
/// are not obvious: running and jogging count as `walk` (on foot); taxi and motorcycle as `car`
/// (road vehicle); e-bikes and e-scooters as `bike` (ridden, on a bike lane's speeds and
/// stops; too few recordings to learn them apart); subway, metro, light rail, commuter rail and
/// tram as `train` (rail); "in vehicle" (Android's and iOS's activity recognition) as `vehicle`,
/// never `car`: it is said of buses and trains too; sitting, standing, stopped (waiting) and the posture
/// transitions of GeoTecINIT as `still`; GeoTecINIT's TURNING (turning round while walking) as
/// `walk`. Any other name is reported as unknown, never guessed.
public enum ModeNames {
    public static let table: [String: Mode] = {
        var table: [String: Mode] = [:]
        let names: [(Mode, [String])] = [
            (
                .still,
                [
                    "still", "stationary", "seated", "sitting", "standing", "standingup", "sittingdown", "idle", "stop", "stopped", "stay",
                    "waiting"
                ]
            ),
            (.walk, ["walk", "walking", "onfoot", "foot", "run", "running", "jog", "jogging", "turning"]),
            (.bike, ["bike", "bicycle", "cycling", "cycle", "biking", "bicycling", "onbicycle", "ebike", "escooter", "kickscooter"]),
            (.car, ["car", "taxi", "drive", "driving", "automobile", "motorcycle", "motorbike"]),
            (.bus, ["bus", "coach", "trolleybus"]),
            (.train, ["train", "rail", "railway", "subway", "metro", "tram", "underground", "lightrail", "commuterrail", "streetcar"]),
            (.vehicle, ["vehicle", "invehicle", "motorised", "motorized"]),
            (.boat, ["boat", "ferry", "ship"]),
            (.airplane, ["airplane", "plane", "aeroplane", "flight"])
        ]
        for (mode, keys) in names { for key in keys { table[key] = mode } }
        return table
    }()

    public static func normalise(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { !" _-\t\r".unicodeScalars.contains($0) })
    }
}
