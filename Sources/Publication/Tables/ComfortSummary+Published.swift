import Comfort
import MobilityCore

extension ComfortSummary {
    /// The summaries that may be published: per train and per route, those at least
    /// `minimumPersons` persons rode, less those that would give one of them away by subtraction
    /// (a ride is on one train and one route, so the trains' rides, ratings and noise add up to
    /// the routes'; `CellSuppression` audits that relation). Returns the kept ones and how many
    /// were left out under k and beside them.
    public static func published(trains: [ComfortSummary], routes: [ComfortSummary], minimumPersons k: Int)
        -> (trains: [ComfortSummary], routes: [ComfortSummary], underK: Int, complementary: Int)
    {
        let all = trains + routes
        var cells = all.map {
            CellSuppression.Cell(publishable: true, sensitive: $0.persons < k, size: Double($0.rides), protection: Double(k))
        }
        let whole = cells.count
        cells.append(CellSuppression.Cell(publishable: false, sensitive: false, size: 0)) // every ride: never printed
        let relations: [[(cell: Int, sign: Double)]] = [
            trains.indices.map { ($0, 1.0) } + [(whole, -1.0)],
            routes.indices.map { (trains.count + $0, 1.0) } + [(whole, -1.0)]
        ]
        let hidden = CellSuppression(cells: cells, relations: relations).suppressed()
        let underK = all.filter { $0.persons < k }.count
        return (
            trains.indices.filter { !hidden.contains($0) }.map { trains[$0] },
            routes.indices.filter { !hidden.contains(trains.count + $0) }.map { routes[$0] }, underK, hidden.count - underK
        )
    }
}
