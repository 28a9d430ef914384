import Foundation
import MobilityCore
import Publication
import Testing
import Trips

/// A later table audited against the modal split's published rows (`SplitMargins`): the leak an
/// attacker found on the simulated city, one grid pair's train trips bounded by the split's, in
/// a table small enough to work out by hand.
@Suite struct SplitMarginsTests {
    func pair(_ origin: String, train: (trips: Int, persons: Int), walk: (trips: Int, persons: Int)) -> ODGroup {
        let trips = train.trips + walk.trips
        return ODGroup(
            origin: origin, destination: "d", trips: trips, devices: 3, persons: 3, durationsSeconds: Array(repeating: 600, count: trips),
            distancesMeters: Array(repeating: 2000, count: trips), mainModes: ["train": train.trips, "walk": walk.trips],
            modePersons: ["train": train.persons, "walk": walk.persons])
    }

    /// The split published train 6 and walk 10 (16 trips). Pair a has one person's train trip
    /// and 5 walks; pair b 4 train trips of 3 persons and 5 walks; one train trip is in no pair
    /// (its ends not placed), and `--json` says so. Audited alone, a's train and walk go (the
    /// row's trips would give one from the other) and b stands whole; then a's train is 6 − 4 −
    /// the remainder, and walk's margin makes the remainder of walk 0 or 1: a's train lies in
    /// [1, 2]. Against the split, b's train and walk go too, and a's train lies in [0, 6].
    @Test func aShareTheSplitBoundsTakesTheOtherPairsShareOfItsMode() throws {
        let groups = [pair("a", train: (1, 1), walk: (5, 3)), pair("b", train: (4, 3), walk: (5, 3))]
        let alone = ODMatrix(groups: groups, minimumPersons: 3)
        #expect(alone.rows.first { $0.origin == "a" }?.suppressedModes == ["train", "walk"])
        #expect(alone.rows.first { $0.origin == "b" }?.suppressedModes == [])
        let margins = SplitMargins(
            recoded: [],
            margins: [
                TimeBands.allDay: [
                    .init(mode: "train", trips: 6, published: true, underK: false),
                    .init(mode: "walk", trips: 10, published: true, underK: false)
                ]
            ])
        let linked = ODMatrix(groups: groups, minimumPersons: 3, margins: [margins])
        #expect(linked.linkedMargins == [SplitMargins.modalSplit: [TimeBands.allDay]])
        #expect(linked.rows.count == 2, "the rows' trips stand: only shares go")
        #expect(linked.rows.first { $0.origin == "a" }?.suppressedModes == ["train", "walk"])
        #expect(linked.rows.first { $0.origin == "b" }?.suppressedModes == ["train", "walk"])
        #expect(linked.suppressedShares == 1 && linked.complementaryShares == 3 && linked.narrowCounts == 0)
    }

    /// A split row left out under k keeps its protection: a later table's published shares of
    /// other modes must not pin it. The split published walk 10 and left out bike 1 (under k)
    /// and car 4 (beside it) of 15 trips. A grid row of walk 5 and car 4 (6 trips in no row)
    /// would bound the split's car below by 4, and so its bike to [0, 1]; the audit leaves the
    /// row's car out, with its walk (the row's trips less one give the other), and the bike
    /// lies in [0, 5]. When the grid's row holds 14 of the 15 trips, with no bike in it, no
    /// share left out widens the bike past the one trip in no row: the count is said narrow.
    @Test func aSplitRowLeftOutUnderKIsNotPinnedByALaterTable() throws {
        func row(walk: Int, car: Int) -> ODGroup {
            ODGroup(
                origin: "a", destination: "d", trips: walk + car, devices: 6, persons: 6,
                durationsSeconds: Array(repeating: 600, count: walk + car), distancesMeters: Array(repeating: 2000, count: walk + car),
                mainModes: ["walk": walk, "car": car], modePersons: ["walk": 6, "car": 3])
        }
        let margins = SplitMargins(
            recoded: [],
            margins: [
                TimeBands.allDay: [
                    .init(mode: "walk", trips: 10, published: true, underK: false),
                    .init(mode: "bike", trips: 1, published: false, underK: true),
                    .init(mode: "car", trips: 4, published: false, underK: false)
                ]
            ])
        #expect(ODMatrix(groups: [row(walk: 5, car: 4)], minimumPersons: 3).rows.first?.suppressedModes == [])
        let linked = ODMatrix(groups: [row(walk: 5, car: 4)], minimumPersons: 3, margins: [margins])
        #expect(linked.linkedMargins == [SplitMargins.modalSplit: [TimeBands.allDay]])
        #expect(linked.rows.first?.suppressedModes == ["car", "walk"], "car's 4 would bound the split's bike to [0, 1]")
        #expect(linked.narrowCounts == 0)
        let pinned = ODMatrix(groups: [row(walk: 10, car: 4)], minimumPersons: 3, margins: [margins])
        #expect(pinned.narrowCounts == 1 && pinned.rows.count == 1)
    }

    /// Margins of other trips (the table counts more of a mode than the split has) are not
    /// linked: the table is audited alone, and says so.
    @Test func marginsOfOtherTripsAreNotLinked() {
        let groups = [pair("a", train: (4, 3), walk: (5, 3))]
        let margins = SplitMargins(
            recoded: [], margins: [TimeBands.allDay: [.init(mode: "train", trips: 2, published: true, underK: false)]])
        let od = ODMatrix(groups: groups, minimumPersons: 3, margins: [margins])
        #expect(od.linkedMargins.isEmpty && od.rows.count == 1)
    }

    /// The two tables recode apart: the grid shows bike (one person among its trips) as `other`
    /// with the flights the split shows as `other`, while the split keeps bike. Their `other`
    /// and the split's bike are one class; walk is its own.
    @Test func classesJoinTheModesTheTwoTablesRecodeApart() {
        let classes = SplitMargins.classes(
            tableModes: ["walk", ModeRecoding.other], splitModes: ["walk", "bike", ModeRecoding.other],
            table: ModeRecoding(recoded: ["bike", "airplane"]), split: ModeRecoding(recoded: ["airplane"]))
        let asSets = Set(classes.map { Set($0.table.map { "t " + $0 } + $0.split.map { "s " + $0 }) })
        #expect(asSets == [["t walk", "s walk"], ["t other", "s other", "s bike"]])
    }

    @Test func theStoreKeepsTheMarginsAsText() throws {
        let margins = SplitMargins(
            recoded: ["airplane"], margins: ["am_peak": [.init(mode: "walk", trips: 3, published: false, underK: true)]])
        #expect(SplitMargins(text: try margins.text()) == margins)
        #expect(SplitMargins(text: "") == nil && SplitMargins(text: nil) == nil && SplitMargins(text: "{") == nil)
        // The tables' lines say what they were audited against, and nothing when alone.
        #expect(PublishedCounts.linkedText([:]).isEmpty)
        #expect(
            PublishedCounts.linkedText(["mode_shares.csv": ["all_day"], "modal_split.csv": ["all_day"]])
                == "; audited against the rows of modal_split.csv and mode_shares.csv (the same trips)")
    }

    /// `co2e.csv` counts the trips `mode_shares.csv` counts (valid person-days), mode by mode:
    /// when the mode shares left out a bike trip of one person with the bus's 5 beside it, a
    /// `co2e.csv` that chose walk's 3 as the bike's complement would publish the bus's 5, and
    /// the mode shares' whole (9) less walk and bus gives the bike. Against the mode shares'
    /// rows, the bus goes too.
    @Test func co2eLeavesOutWhatTheModeSharesLeftOut() {
        var trips: [PlanningTrip] = []
        func add(_ mode: String, _ count: Int, persons: Int) {
            for index in 0..<count {
                trips.append(
                    PlanningTrip(
                        device: "\(mode)-\(index % persons)", person: "\(mode)-\(index % persons)", startSeconds: Double(index) * 3600,
                        origin: nil, destination: nil, durationSeconds: 600, distanceMeters: 2000, mainMode: mode, co2eGrams: 100))
            }
        }
        add("walk", 3, persons: 3)
        add("bike", 1, persons: 1)
        add("bus", 5, persons: 3)
        let days = Dictionary(uniqueKeysWithValues: Set(trips.map(\.person)).map { ($0, 1) })
        let alone = CO2eTable(trips, validDays: days, homeZones: nil, minimumPersons: 3)
        #expect(alone.rows.map(\.mode).sorted() == ["all", "bus"], "alone, walk's 3 is the bike's complement")
        let shares = SplitMargins(
            table: "mode_shares.csv", recoded: [],
            margins: [
                TimeBands.allDay: [
                    .init(mode: "walk", trips: 3, published: true, underK: false),
                    .init(mode: "bike", trips: 1, published: false, underK: true),
                    .init(mode: "bus", trips: 5, published: false, underK: false)
                ]
            ])
        let linked = CO2eTable(trips, validDays: days, homeZones: nil, minimumPersons: 3, margins: [shares])
        #expect(linked.auditedMargins == ["mode_shares.csv": [TimeBands.allDay]])
        #expect(!linked.rows.contains { $0.mode == "bus" || $0.mode == "bike" })
    }
}
