import Testing

@testable import Trips

/// The nightly alarm's memory of earlier runs: a night made again replaces its entry.
struct CoverageHistoryTests {
    @Test func aRunOverTheSameDataReplacesItsEntryAndIsNotItsOwnEarlierRun() {
        var history = CoverageHistory()
        history = history.recording(median: 0.8, data: "monday")
        history = history.recording(median: 0.7, data: "tuesday")
        #expect(history.earlierMedians(than: "tuesday") == [0.8], "tuesday made again compares with monday only")
        #expect(history.earlierMedians(than: "wednesday") == [0.8, 0.7])
        history = history.recording(median: 0.75, data: "tuesday") // --force, or another study window
        #expect(history.runs.map(\.median) == [0.8, 0.75])
        // An entry before the last is never replaced: a night that comes back after others is a new run.
        #expect(history.recording(median: 0.9, data: "monday").runs.count == 3)
    }

    @Test func theStoresTextReadsBackAndEarlierVersionsBareMediansToo() {
        let history = CoverageHistory().recording(median: 0.5, data: "2 person-days")
        #expect(CoverageHistory(text: history.text) == history)
        #expect(history.text == #"[{"data":"2 person-days","median":0.5}]"#)
        let earlier = CoverageHistory(text: "[0.4,0.6]")
        #expect(earlier.runs == [.init(median: 0.4, data: nil), .init(median: 0.6, data: nil)])
        #expect(earlier.earlierMedians(than: "anything") == [0.4, 0.6])
        #expect(CoverageHistory(text: nil).runs.isEmpty && CoverageHistory(text: "not json").runs.isEmpty)
    }
}
