import Foundation
import HeatMaps
import MobilityCore
import Store
import TestSupport
import Testing
import Trips

@testable import Reports

/// Each section of both report pages, on the store of `pipeline run` over the bundled traces,
/// against its recorded HTML (`Fixtures/report-sections/<page>-<section>.html`): a change to one
/// section shows as that section's diff, not as a changed hash of the whole page (the golden
/// record's). Paths of this machine are masked. To re-record on purpose, run with
/// `REPORT_SECTIONS=record` and commit the fixtures with the reason.
@Suite(.serialized) struct ReportSectionTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/report-sections")

    /// The run's folder and its store, made once for the suite.
    nonisolated(unsafe) static let folder = try! TemporaryFolder.forProcess()
    static let out: String = {
        let out = folder.file("out")
        let run = try! PipelineCLI().pipeline(["run", SharedData.projectRoot + "/traces", "--out", out], in: folder.path)
        precondition(run.status == 2, "the bundled traces hold one file quarantined on purpose: \(run.stderr)")
        return out
    }()

    static func sections() throws -> (public: [ReportPage.Section], restricted: [ReportPage.Section]) {
        let store = try PipelineStore(path: StoreLocation.path(in: out))
        let model = SharedData.projectRoot + "/models/mode-model.json"
        let k = HeatMapParameters().minimumPersons
        return try ReportPage(
            facts: try store.reportFacts(defaultMinimumPersons: k), folder: out, modelPath: model,
            calendars: DeviceZone.calendars(
                stored: try store.deviceZones().map { ($0.device, $0.startSeconds, $0.zone, $0.source) },
                persons: try store.devicePersons(), dataset: CalendarKeys())
        )
        .sections { try store.publishedReportFacts(defaultMinimumPersons: k) }
    }

    /// This machine's paths, which are not the report's answer.
    static func masked(_ html: String) -> String {
        html.replacingOccurrences(of: folder.path, with: "$RUN").replacingOccurrences(of: SharedData.projectRoot, with: "$PROJECT")
    }

    /// A section both pages show alike is recorded once (`shared-<section>.html`).
    @Test func everySectionIsAsRecorded() throws {
        let (publicPage, restrictedPage) = try Self.sections()
        let record = ProcessInfo.processInfo.environment["REPORT_SECTIONS"] == "record"
        let restrictedHTML = Dictionary(restrictedPage.map { ($0.name, $0.html) }, uniquingKeysWith: { first, _ in first })
        var files: [(page: String, section: String, html: String)] = []
        for section in publicPage {
            files.append((restrictedHTML[section.name] == section.html ? "shared" : "public", section.name, section.html))
        }
        let shared = Set(files.filter { $0.page == "shared" }.map(\.section))
        for section in restrictedPage where !shared.contains(section.name) { files.append(("restricted", section.name, section.html)) }
        if record {
            for old in try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path) where old.hasSuffix(".html") {
                try FileManager.default.removeItem(at: Self.fixtures.appendingPathComponent(old))
            }
        }
        for file in files {
            let url = Self.fixtures.appendingPathComponent("\(file.page)-\(file.section).html")
            let html = Self.masked(file.html) + "\n"
            if record {
                try Data(html.utf8).write(to: url)
                continue
            }
            let recorded = try? String(contentsOf: url, encoding: .utf8)
            #expect(
                recorded == html,
                "\(file.page) \(file.section) differs from \(url.lastPathComponent) (or is missing); if on purpose, REPORT_SECTIONS=record")
        }
        #expect(publicPage.count == 12 && restrictedPage.count == 15)
        #expect(!shared.isEmpty && files.count == publicPage.count + restrictedPage.count - shared.count)
    }

    /// The sections are the pages: each page holds its sections, in order, and nothing the
    /// other page alone may show leaks into the published one.
    @Test func thePagesAreTheirSections() throws {
        let (publicPage, restrictedPage) = try Self.sections()
        for (path, sections) in [
            ((Self.out as NSString).appendingPathComponent("report.html"), publicPage),
            (OutputLayout.path("report.html", in: OutputLayout.restricted(in: Self.out)), restrictedPage)
        ] {
            let page = try String(contentsOfFile: path, encoding: .utf8)
            var rest = page[...]
            for section in sections where !section.html.isEmpty { // a section with nothing to say is left out
                let found = try #require(rest.range(of: section.html), "\(path): \(section.name) is not where the page has it")
                rest = rest[found.upperBound...]
            }
        }
        let published = publicPage.map(\.html).joined()
        for device in ["phone-01", "phone-02"] { #expect(!published.contains(device), "the published page names \(device)") }
        #expect(restrictedPage.map(\.html).joined().contains("phone-01"), "the operator's page names devices")
    }

    /// The bundled traces' trips end at 27 staypoint origins, 25 staypoint destinations and 2
    /// dwell ends that fewer than k = 3 persons made: the published page counts no kind (with
    /// the 27 trips shown, 25 would give the 2 away), the operator's page counts every one.
    @Test func tripEndsPerKindArePublishedOnlyWhenEveryKindHasKPersons() throws {
        let (publicPage, restrictedPage) = try Self.sections()
        let overview = { (page: [ReportPage.Section]) in page.first { $0.name == "overview" }?.html ?? "" }
        #expect(overview(publicPage).contains("is not shown here, as some kind was made by fewer than k = 3 persons"))
        #expect(!overview(publicPage).contains("2 dwells") && !overview(publicPage).contains("25 staypoints"))
        #expect(overview(restrictedPage).contains("destinations at 25 staypoints, 2 dwells"))
    }
}
