import MobilityCore
import Publication
import Store
import Trips

/// The modal split the report shows is the one `modal_split.csv` publishes: its rows, as the
/// trip stage (or `publish` after a distributed run) computed and kept them beside the file
/// (`TripFigures`); the page computes none of them. What a group left out is drawn as one
/// remainder, only where the group publishes a row's distance and time (its whole is then given
/// away by any share anyway).
extension ReportPage {
    /// The name the page gives the rows left out.
    static let leftOutName = "left out (under k)"

    struct PublishedSplit {
        /// The rows `modal_split.csv` publishes, by dimension, key and mode.
        var published: [[String]: ModalSplit.Row]
        /// Each group's whole, by dimension and key.
        var wholes: [[String]: ModalSplit.Whole]
        var minimumPersons: Int
        /// The whole-day pairs `od_matrix.csv` publishes (the OD section's), and the pairs it left out.
        var odPairs: [TripFigures.Pair], odPairsLeftOut: Int
        /// Per main mode, whether the trips table may print its distance and duration.
        var tripMagnitudesShown: [String: Bool]

        init(_ figures: TripFigures?, minimumPersons k: Int) {
            published = Dictionary(
                (figures?.splitRows ?? []).map { ([$0.dimension, $0.key, $0.mode], $0) }, uniquingKeysWith: { first, _ in first })
            wholes = Dictionary((figures?.splitWholes ?? []).map { ([$0.dimension, $0.key], $0) }, uniquingKeysWith: { first, _ in first })
            minimumPersons = figures?.minimumPersons ?? k
            (odPairs, odPairsLeftOut) = (figures?.odPairs ?? [], figures?.odPairsLeftOut ?? 0)
            tripMagnitudesShown = figures?.tripMagnitudesShown ?? [:]
        }

        /// The modes published in "all", in `Mode` order.
        var modes: [String] {
            published.values.filter { $0.dimension == "all" }.map(\.mode)
                .sorted { (Mode(rawValue: $0) ?? .airplane, $0) < (Mode(rawValue: $1) ?? .airplane, $1) }
        }

        /// The modes of `modes` whose whole-day distance and time are published (the dominance
        /// rule may leave them out of a row whose trips stand).
        var magnitudeModes: [String] { modes.filter { published[["all", "all", $0]]?.distanceMeters != nil } }

        /// A group's published values of a magnitude (`value`: its legs' distance or time, from a
        /// row or from the group's whole) per mode in `modes`, and the rest of the group as one
        /// remainder (nil when the group publishes no row's distance and time: the dominance rule
        /// may leave them out of a row whose trips stand, and a group's whole is shown only where
        /// a published share gives it away).
        func group(
            _ dimension: String, _ key: String, modes: [String], _ value: (_ distanceMeters: Double, _ durationSeconds: Double) -> Double
        )
            -> (perMode: [Double], leftOut: Double)?
        {
            guard let whole = wholes[[dimension, key]] else { return nil }
            let rows = modes.map { published[[dimension, key, $0]] }
            guard rows.contains(where: { $0?.distanceMeters != nil }) else { return nil }
            let perMode = rows.map { row in
                row.flatMap { row in row.distanceMeters.map { value($0, row.durationSeconds ?? 0) } } ?? 0
            }
            return (perMode, max(0, value(whole.distanceMeters, whole.durationSeconds) - perMode.reduce(0, +)))
        }
    }

    func publishedSplit(_ published: ReportFacts.Published) throws -> PublishedSplit {
        PublishedSplit(TripFigures(text: published.tripFigures), minimumPersons: try minimumPersons())
    }
}
