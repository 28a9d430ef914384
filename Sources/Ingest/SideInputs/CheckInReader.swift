import MobilityCore

/// Reads train check-ins: `device,train,from_station,to_station,checkin_time` required;
/// `scheduled_departure, scheduled_arrival`, ratings 1–5 `cleanliness, odours_temperature,
/// crowding, service`, `noise_db` and `comment` optional.
///
/// A row missing a required value is dropped (`malformed_row` or `invalid_time`); a rating
/// outside 1–5 is removed from its check-in and counted as `value_out_of_range`, the rest of
/// the check-in is kept.
public enum CheckInReader {
    public static let required = ["device", "train", "from_station", "to_station", "checkin_time"]
    static let ratings: [(String, any WritableKeyPath<CheckIn, Int?> & Sendable)] = [
        ("cleanliness", \.cleanliness), ("odours_temperature", \.odoursTemperature),
        ("crowding", \.crowding), ("service", \.service)
    ]

    public static func isHeader(_ header: [String]) -> Bool {
        Set(header.map { $0.lowercased() }).isSuperset(of: required)
    }

    public static func read(path: String, dropped: inout DropCounts) throws -> [CheckIn] {
        var checkIns: [CheckIn] = []
        try NamedColumnsCSV.forEachRow(path: path) { row in
            guard let device = row.value("device"), let train = row.value("train"), let from = row.value("from_station"),
                let to = row.value("to_station"), let timeText = row.value("checkin_time")
            else {
                return dropped.record(.malformedRow, line: row.line)
            }
            guard let time = TimeText.parse(timeText) else { return dropped.record(.invalidTime, line: row.line) }
            var checkIn = CheckIn(device: device, train: train, fromStation: from, toStation: to, checkinTime: time, line: row.line)
            checkIn.scheduledDeparture = row.value("scheduled_departure").flatMap(TimeText.parse)
            checkIn.scheduledArrival = row.value("scheduled_arrival").flatMap(TimeText.parse)
            for (name, keyPath) in ratings {
                guard let rating = row.value(name) else { continue }
                if let score = NumberParser.double(rating), score.rounded() == score, (1...5).contains(score) {
                    checkIn[keyPath: keyPath] = Int(score)
                } else {
                    dropped.record(.valueOutOfRange, line: row.line)
                }
            }
            checkIn.noiseDecibels = row.value("noise_db").flatMap(NumberParser.double)
            checkIn.comment = row.value("comment")
            checkIns.append(checkIn)
        }
        return checkIns
    }
}
