import MobilityCore
import Publication
import Store
import Trips

/// The modal split the report shows is the one `modal_split.csv` publishes: the same rows, k
/// persons each, the same rows left out (`TripPublication`'s audit of the split with the OD
/// table), worked out by the same code from the store's trips and legs with each person's calendar. What a group left out is drawn as one remainder,
/// only where the group publishes a row (its whole is then given away by any share anyway).
extension ReportPage {
    /// The name the page gives the rows left out.
    static let leftOutName = "left out (under k)"

    struct PublishedSplit {
        /// Every row, published or not, by dimension, key and mode.
        var totals: [[String]: ModalTotal]
        /// The rows `modal_split.csv` publishes, by dimension, key and mode.
        var published: [[String]: ModalSplit.Row]
        var minimumPersons: Int
        /// The OD table audited with it (the OD section's pairs).
        var odMatrix: ODMatrix

        /// The modes published in "all", in `Mode` order.
        var modes: [String] {
            published.values.filter { $0.dimension == "all" }.map(\.mode)
                .sorted { (Mode(rawValue: $0) ?? .airplane, $0) < (Mode(rawValue: $1) ?? .airplane, $1) }
        }

        /// A group's published values of `value` per mode in `modes`, and the rest of the group
        /// as one remainder (nil when the group publishes nothing).
        func group(_ dimension: String, _ key: String, modes: [String], _ value: (ModalTotal) -> Double) -> (
            perMode: [Double], leftOut: Double
        )? {
            let rows = totals.filter { $0.key[0] == dimension && $0.key[1] == key }
            guard rows.keys.contains(where: { published[$0] != nil }) else { return nil }
            let perMode = modes.map { mode in published[[dimension, key, mode]] != nil ? rows[[dimension, key, mode]].map(value) ?? 0 : 0 }
            // Summed in key order: a dictionary's order changes from process to process, and the
            // last digit of a sum with it (the charts print it: the golden record saw both).
            let whole = rows.sorted { $0.key.lexicographicallyPrecedes($1.key) }.reduce(0) { $0 + value($1.value) }
            return (perMode, max(0, whole - perMode.reduce(0, +)))
        }
    }

    func publishedSplit() throws -> PublishedSplit {
        let (totals, publication) = try publishedTrips()
        let (k, split) = (publication.modalSplit.minimumPersons, publication.modalSplit)
        return PublishedSplit(
            totals: Dictionary(totals.map { ([$0.dimension, $0.key, $0.mode], $0) }, uniquingKeysWith: { first, _ in first }),
            published: Dictionary(split.rows.map { ([$0.dimension, $0.key, $0.mode], $0) }, uniquingKeysWith: { first, _ in first }),
            minimumPersons: k, odMatrix: publication.odMatrix)
    }

    /// The trip tables as a run publishes them (`od_matrix.csv`, `modal_split.csv`), by the same
    /// code over the store's trips and legs, and the modal split's totals before suppression.
    func publishedTrips() throws -> (totals: [ModalTotal], publication: TripPublication) {
        let entries = facts.modalEntries
        func entry(_ e: ReportFacts.ModalEntry) -> ModalTotal.Entry {
            ModalTotal.Entry(
                person: e.person, startSeconds: e.startSeconds, mode: e.mode, distanceMeters: e.distanceMeters,
                durationSeconds: e.durationSeconds, purpose: e.purpose)
        }
        let totals = ModalTotal.totals(trips: entries.trips.map(entry), legs: entries.legs.map(entry), calendars: calendars, bands: bands)
        let k = try minimumPersons()
        let members = entries.trips.map {
            ODGroup.Member(
                device: $0.device ?? $0.person, person: $0.person, origin: $0.originGeofence, destination: $0.destinationGeofence,
                durationSeconds: $0.durationSeconds, distanceMeters: $0.distanceMeters, mainMode: $0.mode,
                band: bands.name(startSeconds: $0.startSeconds, calendar: calendars.person($0.person)))
        }
        let publication = TripPublication(
            odGroups: ODGroup.groups(members), modalTotals: totals, bands: bands, privacy: PrivacyParameters(k: k),
            geofences: facts.geofences)
        return (totals, publication)
    }
}
