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
    static let ratings: [(String, WritableKeyPath<CheckIn, Int?>)] = [
        ("cleanliness", \.cleanliness), ("odours_temperature", \.odoursTemperature),
        ("crowding", \.crowding), ("service", \.service),
    ]

    public static func isHeader(_ header: [String]) -> Bool {
        Set(header.map { $0.lowercased() }).isSuperset(of: required)
    }

    public static func read(path: String, dropped: inout DropCounts) throws -> [CheckIn] {
        var checkIns: [CheckIn] = []
        var columns: [String: Int] = [:]
        var delimiter: UInt8 = 0x2C
        try LineReader(path: path).forEachLine { line, number in
            let text = String(decoding: line, as: UTF8.self)
            if number == 1 {
                delimiter = IMUDialect.guessDelimiter(text)
                for (index, name) in CSVFields.split(text, delimiter: delimiter).enumerated() { columns[name.lowercased()] = index }
                return true
            }
            guard !line.isEmpty else { return true }
            let fields = CSVFields.split(text, delimiter: delimiter)
            let value = { (name: String) -> String? in
                columns[name].flatMap { $0 < fields.count && !fields[$0].isEmpty ? fields[$0] : nil }
            }
            guard let device = value("device"), let train = value("train"), let from = value("from_station"),
                  let to = value("to_station"), let timeText = value("checkin_time") else {
                dropped.record(.malformedRow, line: number)
                return true
            }
            guard let time = TimeText.parse(timeText) else {
                dropped.record(.invalidTime, line: number)
                return true
            }
            var checkIn = CheckIn(device: device, train: train, fromStation: from, toStation: to, checkinTime: time, line: number)
            checkIn.scheduledDeparture = value("scheduled_departure").flatMap(TimeText.parse)
            checkIn.scheduledArrival = value("scheduled_arrival").flatMap(TimeText.parse)
            for (name, keyPath) in ratings {
                guard let rating = value(name) else { continue }
                if let score = NumberParser.double(rating), score.rounded() == score, (1...5).contains(score) {
                    checkIn[keyPath: keyPath] = Int(score)
                } else {
                    dropped.record(.valueOutOfRange, line: number)
                }
            }
            checkIn.noiseDecibels = value("noise_db").flatMap(NumberParser.double)
            checkIn.comment = value("comment")
            checkIns.append(checkIn)
            return true
        }
        return checkIns
    }
}
