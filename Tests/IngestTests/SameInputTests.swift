import Ingest
import Testing

/// An input is its content (`SameInput`): the cases a run meets, with known answers.
@Suite struct SameInputTests {
    let found = SameInput.Found(contentSHA256: "abc", columnMapping: nil, isRecording: true, device: "phone", person: "ann")

    func stored(_ path: String, _ hash: String = "abc", status: String = "ingested", device: String? = "phone", person: String? = "ann")
        -> SameInput.Stored
    {
        SameInput.Stored(path: path, contentSHA256: hash, status: status, device: device, person: person)
    }

    func decide(previous: SameInput.Stored?, others: [(SameInput.Stored, Bool)] = [], rereadAll: Bool = false, force: Bool = false)
        -> SameInput.Decision
    {
        SameInput.decide(
            found, previous: previous, sameContent: { others.map { (stored: $0.0, gone: $0.1) } }, rereadAll: rereadAll, force: force)
    }

    @Test func theSameContentAtTheSamePathIsUnchangedAndAChangedOneIsRead() {
        #expect(decide(previous: stored("/a.gpx")) == .unchanged)
        #expect(decide(previous: stored("/a.gpx", "def")) == .read)
        #expect(decide(previous: stored("/a.gpx"), rereadAll: true) == .read, "--force reads every input again")
        var mapped = stored("/a.csv")
        mapped.columnMapping = "time=t"
        #expect(decide(previous: mapped) == .read, "a new column mapping reads it again")
    }

    @Test func aRecordingStoredAsSomeoneElsesIsReadAgain() {
        #expect(decide(previous: stored("/a.gpx", person: "bob")) == .read, "a manifest that names another person")
        #expect(decide(previous: stored("/a.gpx", status: "quarantined", person: "bob")) == .unchanged, "a quarantined input has no owner")
    }

    @Test func aMovedInputFollowsItsContentAndACopyIsSkipped() {
        #expect(decide(previous: nil, others: [(stored("/old/a.gpx"), true)]) == .moved(from: "/old/a.gpx"))
        #expect(decide(previous: nil, others: [(stored("/other/a.gpx"), false)]) == .copy(of: "/other/a.gpx"))
        #expect(
            decide(previous: nil, others: [(stored("/old/a.gpx"), true)], force: true) == .read, "--force takes no stored input's place")
        #expect(decide(previous: nil) == .read, "new content")
    }

    @Test func anotherOwnersRecordingOfTheSameContentIsNotThisOne() {
        // Two persons' phones recorded the same bytes (a shared export): each is read.
        #expect(decide(previous: nil, others: [(stored("/bob/a.gpx", person: "bob"), false)]) == .read)
        // Quarantined content stays quarantined wherever it is found again.
        #expect(
            decide(previous: nil, others: [(stored("/bob/a.gpx", status: "quarantined", person: "bob"), false)]) == .copy(of: "/bob/a.gpx"))
        // The first stored input of the content that may be this one decides, in path order.
        let others = [(stored("/b/a.gpx", person: "bob"), true), (stored("/c/a.gpx"), false)]
        #expect(decide(previous: nil, others: others) == .copy(of: "/c/a.gpx"))
    }

    @Test func quarantinedContentIsNotQuarantinedAgain() {
        #expect(SameInput.quarantinedBefore("abc", previous: stored("/a.csv", status: "quarantined"), rereadAll: false))
        #expect(!SameInput.quarantinedBefore("def", previous: stored("/a.csv", status: "quarantined"), rereadAll: false))
        #expect(!SameInput.quarantinedBefore("abc", previous: stored("/a.csv", status: "quarantined"), rereadAll: true))
        #expect(!SameInput.quarantinedBefore("abc", previous: nil, rereadAll: false))
    }
}
