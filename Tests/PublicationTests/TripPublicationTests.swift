import MobilityCore
import Publication
import Testing
import Trips

/// `od_matrix.csv` and `modal_split.csv` audited together (`TripPublication`), on tables whose
/// answers are worked by hand: what one hides the other must not give away.
@Suite struct TripPublicationTests {
    /// Trips of a panel: (person, main mode, origin, destination), all at 08:00 UTC on one day.
    static func trips(_ made: [(String, String, String?, String?)]) -> (groups: [ODGroup], totals: [ModalTotal]) {
        let members = made.map {
            ODGroup.Member(
                device: $0.0 + "-phone", person: $0.0, origin: $0.2, destination: $0.3, durationSeconds: 600, distanceMeters: 3000,
                mainMode: $0.1, band: "am_peak")
        }
        let entries = made.map { ModalTotal.Entry(person: $0.0, startSeconds: 1_714_982_400 + 8 * 3600, mode: $0.1) }
        let legs = made.map {
            ModalTotal.Entry(person: $0.0, startSeconds: 1_714_982_400 + 8 * 3600, mode: $0.1, distanceMeters: 3000, durationSeconds: 600)
        }
        return (ODGroup.groups(members), ModalTotal.totals(trips: entries, legs: legs))
    }

    /// Five walkers, four train riders, three drivers and one flight: 13 trips of 13 persons.
    static let panel: [(String, String)] =
        (1...5).map { ("w\($0)", "walk") } + (1...4).map { ("t\($0)", "train") } + (1...3).map { ("c\($0)", "car") }
        + [("f1", "airplane")]

    /// The leak: with no geofences the OD table's one pair held every trip, and its
    /// shares gave the one flight that the modal split hid. Now it has no rows; the flight is
    /// `other`, left out of the split with the smallest other whole-day row, and the rest stands.
    @Test func withoutGeofencesTheODHasNoRowsAndTheSplitKeepsItsWholeDayRows() {
        let (groups, totals) = Self.trips(Self.panel.map { ($0.0, $0.1, nil, nil) })
        let published = TripPublication(odGroups: groups, modalTotals: totals, privacy: PrivacyParameters(k: 3), geofences: 0)
        #expect(published.odMatrix.rows.isEmpty && ODMatrixCounts(published.odMatrix).line.contains("no geofences were given"))
        let all = published.modalSplit.rows.filter { $0.dimension == "all" }
        #expect(published.modalSplit.recoding.recoded == ["airplane"])
        #expect(Set(all.map(\.mode)) == ["walk", "train"], "other (1 person) and the smallest other row (car) are left out: \(all)")
        #expect(!published.modalSplit.rows.contains { $0.mode == "airplane" || $0.mode == "other" })
        #expect(published.modalSplit.suppressedTrips == 1 && published.modalSplit.complementaryTrips == 3)
    }

    /// Every trip between the same two geofences: the OD row is the modal split again. The modes
    /// the split leaves out (other, and its complement) must be left out of the OD row's shares
    /// too, or the shares times the row's trips would give them back.
    @Test func aModeLeftOutOfTheSplitIsLeftOutOfTheODRowToo() throws {
        let (groups, totals) = Self.trips(Self.panel.map { ($0.0, $0.1, "home", "work") })
        let published = TripPublication(odGroups: groups, modalTotals: totals, privacy: PrivacyParameters(k: 3), geofences: 2)
        let hidden = Set(["walk", "train", "car", "other"]).subtracting(
            published.modalSplit.rows.filter { $0.dimension == "all" }.map(\.mode))
        #expect(hidden.count >= 2)
        let row = try #require(published.odMatrix.rows.first { $0.band == "all_day" })
        #expect(row.trips == 13)
        for mode in hidden {
            #expect(row.modeShares[mode] == nil, "\(mode) is left out of the split; its share of the only pair would give it back")
        }
        // What the two tables publish of a left-out mode together: nothing that adds up to it.
        let shown = row.modeShares.mapValues { Int(($0 * Double(row.trips)).rounded()) }
        let split = Dictionary(published.modalSplit.rows.filter { $0.dimension == "all" }.map { ($0.mode, $0.trips) }, uniquingKeysWith: +)
        #expect(Set(shown.keys).union(split.keys).count <= 4 - 2, "at least two modes stay unknown in both tables")
    }

    /// k is one setting: a run's k reaches both tables.
    @Test func bothTablesTakeTheOneK() {
        let (groups, totals) = Self.trips(Self.panel.map { ($0.0, $0.1, "home", "work") })
        let open = TripPublication(odGroups: groups, modalTotals: totals, privacy: PrivacyParameters(k: 1), geofences: 2)
        #expect(open.odMatrix.minimumPersons == 1 && open.modalSplit.minimumPersons == 1)
        #expect(open.modalSplit.recoding.recoded.isEmpty && open.odMatrix.rows.first?.suppressedModes.isEmpty == true)
    }
}

/// `DisclosureAudit`'s sub-tables: a breakdown whose protection would take a whole-day cell is
/// left out whole, and the whole-day cells stay.
@Suite struct DisclosureAuditTests {
    @Test func aSubTableThatWouldTakeABaseCellIsLeftOutWhole() {
        var audit = DisclosureAudit()
        // The base: a, a cheap cell. The breakdown "x" of it: x1 (one person's) and x2 (dear).
        let a = audit.add(CellSuppression.Cell(publishable: true, sensitive: false, size: 1))
        let x1 = audit.add(CellSuppression.Cell(publishable: true, sensitive: true, size: 1), layer: "x")
        let x2 = audit.add(CellSuppression.Cell(publishable: true, sensitive: false, size: 100), layer: "x")
        audit.relate([(x1, 1), (x2, 1), (a, -1)])
        let (hidden, dropped) = audit.suppressed()
        #expect(dropped == ["x"] && hidden == [x1, x2], "the breakdown goes, not a: \(hidden)")
        // Audited as one table instead, the cheapest complement is a, the base's cell.
        let flat = CellSuppression(cells: audit.cells, relations: audit.relations).suppressed()
        #expect(flat == [x1, a])
    }
}
