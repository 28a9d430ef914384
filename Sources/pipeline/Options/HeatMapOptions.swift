import ArgumentParser
import HeatMaps

/// The heat-map stage's options, shared by `heatmap` and `run`.
struct HeatMapOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Grid cell side, metres.", valueName: "m"))
    var cellSize = HeatMapParameters().cellMeters

    @Option(help: "Only fixes travelling by these modes, comma-separated (still, walk, bike, car, bus, train …). Default: all.")
    var modes: String?

    @Option(help: "First local day to include, YYYY-MM-DD. Default: the first in the data.")
    var from: String?

    @Option(help: "Last local day to include, YYYY-MM-DD. Default: the last in the data.")
    var to: String?

    @Option(help: "Weekdays to include, comma-separated, 0 = Monday … 6 = Sunday. Default: all.")
    var weekdays: String?

    @Option(help: "Hours of the day to include, comma-separated 0-23 or ranges like 7-9. Default: all.")
    var hours: String?

    func apply(to parameters: inout HeatMapParameters) throws {
        parameters.cellMeters = cellSize
        parameters.modes = modes.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } } ?? parameters.modes
        parameters.from = from ?? parameters.from
        parameters.to = to ?? parameters.to
        parameters.weekdays = try weekdays.map { try Self.numbers($0, name: "--weekdays") } ?? parameters.weekdays
        parameters.hours = try hours.map { try Self.numbers($0, name: "--hours") } ?? parameters.hours
    }

    /// "1,3,7-9" → [1, 3, 7, 8, 9].
    static func numbers(_ text: String, name: String) throws -> [Int] {
        try text.split(separator: ",").flatMap { part -> [Int] in
            let bounds = part.split(separator: "-").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard !bounds.isEmpty, bounds.count <= 2, let low = bounds.first!, let high = bounds.last!, low <= high else {
                throw ValidationError("\(name): \(part) is not a number or a range like 7-9")
            }
            return Array(low...high)
        }
    }
}
