import Classify
import Comfort
import Foundation
import HeatMaps
import MobilityCore
import Publication
import Store
import Trips

/// `report.html`: one self-contained page (inline CSS, SVG charts, PNGs as data URIs; no
/// network) that shows a run at a glance. Drawn from the store's facts as values
/// (`ReportFacts`, read by the runner), so the same facts give the same page.
public struct ReportPage {
    public var facts: ReportFacts
    public var folder: String
    public let modelPath: String?
    /// The model at `modelPath`, read once for every section that shows it; nil without one
    /// (or when it cannot be read: the page then shows the GPS-speed rules).
    let model: ModeModel?
    /// Each device's and person's local time (the modal split's hours and weekdays).
    public var calendars: LocalCalendars
    /// The bands of the local day the modal split is cut by, as the run's tables are.
    public var bands = TimeBands()

    public static let generator = "pipeline " + ToolVersion.string

    /// True when the per-device tables were published as Parquet only (a distributed run
    /// without `--csv`): the page then points at `parquet/trips` where it would name `trips.csv`.
    public var perDeviceTablesAsParquet = false

    public init(facts: ReportFacts, folder: String, modelPath: String?, calendars: LocalCalendars) {
        self.facts = facts
        self.folder = folder
        self.modelPath = modelPath
        self.model = modelPath.flatMap { try? ModeModel.load(path: $0) }
        self.calendars = calendars
    }

    /// Which page this is: the one that publishes (`report.html`: aggregates under k persons,
    /// counts) or the operator's (`restricted/report.html`: every input file, device and ride by
    /// name as well), `OutputLayout`.
    public var isRestricted = false

    /// Writes both pages. `published` returns the heat maps and the OD table once they are in the
    /// store and the folder: `pipeline publish` computes them while the other sections are drawn.
    public func write(published: () throws -> ReportFacts.Published) throws {
        var restricted = self
        restricted.isRestricted = true
        let (publicPage, restrictedPage) = try sections(published: published)
        try write(publicPage.map(\.html), to: (folder as NSString).appendingPathComponent("report.html"))
        try restricted.write(restrictedPage.map(\.html), to: OutputLayout.path("report.html", in: OutputLayout.restricted(in: folder)))
    }

    /// Each page's sections, named, in page order: the published page's and the operator's.
    /// The heat-map and OD sections are drawn after `published` returns.
    func sections(published: () throws -> ReportFacts.Published) throws -> (
        public: [Section], restricted: [Section]
    ) {
        var restricted = self
        restricted.isRestricted = true
        // The trip tables' figures are kept by the trip stage, or by `publish` from a distributed
        // run's reductions while the other sections are drawn: read once it has.
        let given = try published()
        let split = try publishedSplit(given) // read once: the modal split, the trust table and the trips by mode show the same rows
        let (modalSplit, trust) = (modalSplit(split), try trust(split))
        let (publicTrips, restrictedTrips) = (try trips(split), try restricted.trips(split))
        let (publicDwells, restrictedDwells) = (try dwellPlaces(), try restricted.dwellPlaces())
        let (publicComfort, restrictedComfort) = (try comfort(), try restricted.comfort())
        let (inputs, fileOutcomes, devices) = (try restricted.inputs(), try restricted.fileOutcomes(), try restricted.devices())
        let (publicModes, restrictedModes) = (try classifier(), try restricted.classifier())
        let recordingRides = try restricted.recordingRides()
        let inputCounts = try inputCounts()
        let late = try shown(given) // the stages' lines, which count what each table left out, withheld under k persons
        let (overview, restrictedOverview) = (
            try overview(noValidDay: late.noValidDay), try restricted.overview(noValidDay: given.noValidDay)
        )
        let (od, heat, planning) = (try originDestination(late, split), try heatMaps(late), try planning(late))
        let (publicPunctuality, restrictedPunctuality) = (try punctuality(late), try restricted.punctuality(given))
        let restrictedPlanning = try restricted.planning(given) // names the persons of implausible weight
        let publicPage: [Section] = [
            ("overview", overview), ("input_counts", inputCounts), ("modal_split", modalSplit), ("trust", trust),
            ("trips", publicTrips), ("origin_destination", od), ("planning", planning), ("dwell_places", publicDwells), ("heat_maps", heat),
            ("comfort", publicComfort), ("punctuality", publicPunctuality), ("classifier", publicModes)
        ]
        let restrictedPage: [Section] = [
            ("overview", restrictedOverview), ("inputs", inputs), ("file_outcomes", fileOutcomes), ("devices", devices),
            ("modal_split", modalSplit), ("trust", trust), ("trips", restrictedTrips), ("origin_destination", od),
            ("planning", restrictedPlanning),
            ("dwell_places", restrictedDwells), ("heat_maps", heat), ("comfort", restrictedComfort),
            ("punctuality", restrictedPunctuality),
            ("recording_rides", recordingRides), ("classifier", restrictedModes)
        ]
        return (publicPage, restrictedPage)
    }

    /// A section of a page: its name (for tests and diffs) and its HTML.
    typealias Section = (name: String, html: String)

    private func write(_ sections: [String], to path: String) throws {
        let page =
            Self.head + "<body><main>\n" + sections.joined(separator: "\n") + "\n<footer>Made by \(Self.generator) from "
            + "the store " + (isRestricted ? "beside this file" : "kept with the data in restricted/")
            + " (pipeline.sqlite). Times are UTC; "
            + "local hours, weekdays and dates are in \(HTML.escape(calendars.name)).</footer></main></body></html>\n"
        try Data(page.utf8).writeThroughPartial(to: URL(fileURLWithPath: path))
    }

    /// Where the reader finds a file that identifies people, from this page: its CSV, or its
    /// Parquet dataset, in `restricted/`.
    func perDeviceTable(_ file: String) -> String {
        let name =
            perDeviceTablesAsParquet && OutputSchema.named(file)?.isPerDeviceTable == true
            ? "parquet/" + file.replacingOccurrences(of: ".csv", with: "") : file
        return isRestricted ? name : OutputLayout.restrictedFolderName + "/" + name
    }

    static let head = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Mobility pipeline report</title>
        <style>
        body{font-family:system-ui,-apple-system,"DejaVu Sans",sans-serif;margin:0;background:#f6f7f9;color:#1d2330}
        main{max-width:1040px;margin:0 auto;padding:24px}
        h1{margin:0 0 4px;font-size:26px} h2{margin:28px 0 8px;font-size:19px;border-bottom:1px solid #dde1e7;padding-bottom:4px}
        section{background:#fff;border-radius:8px;padding:4px 18px 16px;margin:14px 0;box-shadow:0 1px 2px rgba(0,0,0,.06)}
        .cards{display:flex;flex-wrap:wrap;gap:10px;margin:12px 0}
        .card{background:#fff;border-radius:8px;padding:10px 14px;min-width:110px;box-shadow:0 1px 2px rgba(0,0,0,.08)}
        .card b{display:block;font-size:22px} .card span{color:#5b6473;font-size:13px}
        table{border-collapse:collapse;font-size:13px;margin:8px 0;width:100%} th,td{padding:4px 8px;border-bottom:1px solid #eceff3;text-align:left}
        th{background:#f1f3f6} td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
        .ct{font-size:13px;font-weight:600;fill:#1d2330} .ax{font-size:11px;fill:#4a5261}
        .none{color:#7a8291} .note{color:#5b6473;font-size:13px} .warning{color:#9a3b00;font-size:13px} img{max-width:100%;border:1px solid #e3e6ea;border-radius:4px}
        .maps{display:grid;grid-template-columns:repeat(auto-fill,minmax(440px,1fr));gap:10px}
        footer{color:#7a8291;font-size:12px;margin-top:24px}
        </style></head>

        """

    private func time(_ seconds: Double) -> String {
        seconds > 0 ? String(ISO8601.format(Timestamp(secondsSince1970: seconds)).prefix(16)).replacingOccurrences(of: "T", with: " ") : "–"
    }

    /// True on the published page when the run holds fewer than k persons: every total (inputs,
    /// fixes, trips, the data's time span) is then one or two persons' own, and is not shown.
    func withholdsTotals() throws -> Bool {
        guard !isRestricted else { return false }
        return Set(facts.deviceIdentities.map(\.person)).count < (try minimumPersons())
    }

    /// The publish's facts as this page may show them: on the published page of a run of fewer
    /// than k persons, the stages' lines (what each table published and left out, from how many
    /// trips, legs and person-days) are totals of those persons alone, and say `withheldLine`.
    func shown(_ published: ReportFacts.Published) throws -> ReportFacts.Published {
        guard try withholdsTotals() else { return published }
        var shown = published
        let withheld = { (line: String?) in line.map { $0.isEmpty ? $0 : Self.withheldLine } }
        (shown.odMatrixLine, shown.odGridLine, shown.odZonesLine) = (
            withheld(published.odMatrixLine), withheld(published.odGridLine), withheld(published.odZonesLine)
        )
        (shown.modeSharesLine, shown.co2eLine) = (withheld(published.modeSharesLine), withheld(published.co2eLine))
        shown.punctualityLine = withheld(published.punctualityLine)
        return shown
    }

    /// A stage's line on the published page of a run of fewer than k persons (`shown`).
    static let withheldLine = "What this table left out, and of how many trips: not shown, fewer than k persons (above)"

    /// What the published page says instead of a total it withholds.
    func withheldNote() throws -> String {
        "<p class=\"note\">This run holds data of fewer than k = \(try minimumPersons()) persons, so its totals (inputs, devices, fixes, "
            + "staypoints, trips, the time span, files and records by format and reason, what the modal split and the trips leave out) "
            + "would be theirs alone: they are not shown here. "
            + "The operator's page, \(perDeviceTable("report.html")), has them.</p>"
    }

    /// The page's title, its totals and how the trips' ends were placed; `noValidDay` (the
    /// publish's sentence when no person-day was valid) says why the planning tables are empty.
    func overview(noValidDay: String? = nil) throws -> String {
        let noValidDay = noValidDay.map { "<p class=\"warning\">\(HTML.escape($0))</p>" } ?? ""
        if try withholdsTotals() { return "<h1>Mobility pipeline report</h1>" + (try withheldNote()) + noValidDay }
        let counts = facts.overview
        let cards: [(String, Double)] = [
            ("inputs", Double(counts.inputs)),
            ("quarantined", Double(Set(facts.quarantined.map(\.path)).count)),
            ("devices with data", Double(counts.devices)),
            ("persons", Double(Set(facts.deviceIdentities.map(\.person)).count)),
            ("GPS fixes", Double(counts.fixes)),
            ("IMU samples", Double(counts.imuSamples)),
            ("staypoints", Double(counts.staypoints)),
            ("dwells", Double(counts.dwells)),
            ("trips", Double(counts.trips)),
            ("check-ins", Double(counts.checkIns))
        ]
        let title =
            isRestricted
            ? "<h1>Mobility pipeline report: operator's page (restricted)</h1><p class=\"warning\">This page names "
                + "input files, devices and rides: it identifies people. Keep it with the data; report.html in the folder above is the page to publish.</p>"
            : "<h1>Mobility pipeline report</h1>"
        let tally = try tripEnds()
        return title + "<p class=\"note\">Data from \(time(counts.firstSeconds ?? 0)) to "
            + "\(time(counts.lastSeconds ?? 0)) UTC.</p><div class=\"cards\">"
            + cards.map { "<div class=\"card\"><b>\(Self.compact($0.1))</b><span>\($0.0)</span></div>" }.joined() + "</div>"
            + "<p class=\"note\">\(HTML.escape(tally.prefix(1).uppercased() + tally.dropFirst())): an end without a stay "
            + "takes the trip's first or last fix (docs/trips.md).</p>" + noValidDay
    }

    /// How the trips' ends were placed, a count per kind; on the published page only when every
    /// kind with an end was made by k persons or more (else a kind's count would be those few
    /// persons' own, and the counts are on the operator's page).
    func tripEnds() throws -> String {
        let ends = facts.tripEndKinds
        let tally = TripEnd.Tally(origins: ends.origins, destinations: ends.destinations, gapStays: ends.gapStays)
        let text = tally.text(staypoints: perDeviceTable("staypoints.csv"))
        guard !isRestricted else { return text }
        let person = { (device: String) in facts.devicePersons[device] ?? device }
        var persons: [String: Set<String>] = [:]
        for (index, device) in ends.devices.enumerated() {
            persons["origin " + (ends.origins[index] ?? "none"), default: []].insert(person(device))
            persons["destination " + (ends.destinations[index] ?? "none"), default: []].insert(person(device))
        }
        if !ends.gapStayDevices.isEmpty { persons["gap stays"] = Set(ends.gapStayDevices.map(person)) }
        let k = try minimumPersons()
        guard persons.values.contains(where: { $0.count < k }) else { return text }
        return "trip ends: how many were placed at each kind of end (staypoint, dwell, gap stay, first or last fix) is not shown "
            + "here, as some kind was made by fewer than k = \(k) persons; the operator's page, \(perDeviceTable("report.html")), "
            + "counts them"
    }

    static func compact(_ value: Double) -> String {
        value >= 1e6 ? String(format: "%.1f M", value / 1e6) : value >= 1e4 ? String(format: "%.0f k", value / 1e3) : String(Int(value))
    }

    /// What each stage made of every recording: streams and the rate they were measured at,
    /// windows and modes, measured rides, and why a stage made nothing (never silently nothing).
    func fileOutcomes() throws -> String {
        let limit = 200
        let outcomes = facts.fileOutcomes.filter { $0.imuSamples > 0 || !$0.notes.isEmpty }
        let rows = outcomes.prefix(limit).map { outcome -> [String] in
            let streams = outcome.streams.map { stream in
                var text = stream.sensor + (stream.realRateHz.map { String(format: " %.1f Hz", $0) } ?? "")
                if let factor = stream.repeatFactor { text += " (values ×\(factor))" }
                if stream.gaps > 0 { text += String(format: ", %d gaps, longest %.1f s", stream.gaps, stream.longestGapS) }
                return text
            }.joined(separator: "; ")
            let modes = outcome.modeMinutes.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map {
                String(format: "%@ %.1f min", $0.key, $0.value)
            }
            return [
                (outcome.path as NSString).lastPathComponent, outcome.device ?? "", streams, outcome.windows.map { "\($0)" } ?? "",
                modes.joined(separator: ", "), outcome.measuredRides > 0 ? "\(outcome.measuredRides)" : "",
                outcome.notes.joined(separator: "; ")
            ]
        }
        return "<section><h2>What each recording gave</h2><p class=\"note\">Per recording with IMU data or something to say: its "
            + "streams at the rate they were measured (median interval; repeated values seen through), the windows and modes "
            + "classify made, the rides comfort measured, and why a stage made nothing. Every input is in file_outcomes of "
            + "<code>pipeline run --json</code>" + (outcomes.count > limit ? "; \(outcomes.count - limit) more rows there." : ".") + "</p>"
            + HTML.table(["file", "device", "IMU streams", "windows", "modes", "rides", "notes"], Array(rows), numeric: [3, 5])
            + "</section>"
    }

    /// The published page's inputs: counts per format and per quarantine reason, no file or
    /// device named (those are on the operator's page).
    func inputCounts() throws -> String {
        if try withholdsTotals() {
            return "<section><h2>Inputs</h2><p class=\"note\">Not shown: fewer than k persons (above).</p></section>"
        }
        let byFormat = facts.inputGroups.map { group in
            [group.format, group.status]
                + [
                    group.files, group.fixes, group.imuSamples, group.labels, group.geofences, group.checkIns,
                    group.dropped
                ].map(String.init)
        }
        var reasons: [[String]: Int] = [:]
        for entry in facts.quarantined { reasons[[entry.stage, entry.code], default: 0] += 1 }
        let quarantined = reasons.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map { $0.key + [String($0.value)] }
        let dropped = facts.droppedRecords.map { [$0.reason, String($0.records)] }
        let noted = facts.fileOutcomes.filter { !$0.notes.isEmpty }.count
        return "<section><h2>Inputs</h2>" + Self.identityNote(facts.deviceIdentities)
            + HTML.table(
                ["format", "status", "files", "fixes", "IMU samples", "labels", "geofences", "check-ins", "dropped records"], byFormat,
                numeric: Set(2...8))
            + "<h3>Quarantined files</h3><p class=\"note\">Inputs set aside, by stage and reason; each file, line and reason is in "
            + "\(perDeviceTable("quarantine.csv")). Recordings with a note on what a stage made of them: \(noted) (each in "
            + "\(perDeviceTable("report.html")), which names every file and device, and in <code>pipeline run --json</code>).</p>"
            + HTML.table(["stage", "code", "files"], quarantined, numeric: [2])
            + "<h3>Records dropped while cleaning</h3>" + HTML.table(["reason", "records"], dropped, numeric: [1]) + "</section>"
    }

    func inputs() throws -> String {
        let byFormat = facts.inputGroups.map { group in
            [group.format, group.status]
                + [
                    group.files, group.fixes, group.imuSamples, group.labels, group.geofences, group.checkIns,
                    group.dropped
                ].map(String.init)
        }
        let quarantined = facts.quarantined.map { entry in
            [
                entry.shownPath, entry.stage, entry.line.map { "\($0)" + (entry.column.map { ":\($0)" } ?? "") } ?? "", entry.code,
                entry.reason
            ]
        }
        let dropped = facts.droppedRecords.map { [$0.reason, String($0.records)] }
        return "<section><h2>Inputs</h2>"
            + HTML.table(
                ["format", "status", "files", "fixes", "IMU samples", "labels", "geofences", "check-ins", "dropped records"], byFormat,
                numeric: Set(2...8))
            + "<h3>Quarantined files</h3><p class=\"note\">Not read (stage ingest), or set aside by a later stage; fix them and run "
            + "again (listed in \(perDeviceTable("quarantine.csv"))).</p>"
            + HTML.table(["file", "stage", "line:column", "code", "reason"], quarantined)
            + "<h3>Records dropped while cleaning</h3>" + HTML.table(["reason", "records"], dropped, numeric: [1]) + "</section>"
    }

    func devices() throws -> String {
        let identities = Dictionary(facts.deviceIdentities.map { ($0.device, $0) }, uniquingKeysWith: { first, _ in first })
        let rows = facts.deviceSpans.map { span -> [String] in
            let first = span.firstSeconds ?? 0, last = span.lastSeconds ?? 0
            let identity = identities[span.device]
            return [
                span.device, identity?.deviceSource ?? "", identity.map { $0.personSource == "device" ? "(none named)" : $0.person } ?? "",
                String(span.files), String(span.fixes), String(span.imuSamples), time(first), time(last), HTML.duration(last - first)
            ]
        }
        return "<section><h2>Devices and time span</h2>" + Self.identityNote(Array(identities.values))
            + HTML.table(
                ["device", "name from", "person", "files", "fixes", "IMU samples", "first", "last", "span"], rows, numeric: [3, 4, 5, 8])
            + "</section>"
    }

    /// Where the device names came from, and a warning when no person is named: then one
    /// person's two phones (or two app exports) count as two persons towards k.
    static func identityNote(_ identities: [ReportFacts.DeviceIdentity]) -> String {
        guard !identities.isEmpty else { return "" }
        var sources: [String: Int] = [:]
        for identity in identities { sources[identity.deviceSource, default: 0] += 1 }
        let said = sources.sorted { $0.key < $1.key }.map { "\($0.value) from \($0.key.replacingOccurrences(of: "_", with: " "))" }.joined(
            separator: ", ")
        let named = identities.filter { $0.personSource != "device" }.count
        var note = "<p class=\"note\">Device names: \(said). Persons named for \(named) of \(identities.count) devices.</p>"
        if named < identities.count, identities.allSatisfy({ ["folder", "file_name"].contains($0.deviceSource) }) {
            note +=
                "<p class=\"warning\">Devices came from folder or file names only, and a device without a named person counts as a "
                + "person of its own: one person's two phones or exports would count twice towards the heat map's k. Name them in a "
                + "manifest.csv (path,device,person) or with --name-pattern's (?&lt;person&gt;…) group.</p>"
        }
        return note
    }

    /// Minutes per mode by hour of day and by weekday, from the triplegs' start times.
    func modalSplit(_ split: PublishedSplit) -> String {
        guard !split.wholes.isEmpty else { return "<section><h2>Modal split</h2><p class=\"none\">No triplegs.</p></section>" }
        // The modes whose distance and time are published: a mode whose trips stand but whose
        // magnitudes the dominance rule left out is part of the left-out remainder, not a bar of 0.
        let modes = split.magnitudeModes, shown = split.magnitudeModes + [Self.leftOutName]
        func values(_ dimension: String, _ keys: [String], _ value: (Double, Double) -> Double) -> [[Double]] {
            keys.map { key in
                split.group(dimension, key, modes: modes, value).map { $0.perMode + [$0.leftOut] }
                    ?? Array(repeating: 0, count: shown.count)
            }
        }
        let hours = (0..<24).map { String(format: "%02d", $0) }
        let minutes = { (_: Double, seconds: Double) in seconds / 60 }
        let distance = split.group("all", "all", modes: modes) { meters, _ in meters / 1000 }.map { $0.perMode + [$0.leftOut] } ?? []
        return "<section><h2>Modal split</h2><p class=\"note\">Share of travel time per mode, by the local hour and weekday legs start in, "
            + "as modal_split.csv publishes it: a mode of fewer than k = \(split.minimumPersons) persons in an hour or weekday, and whatever "
            + "would give it away, is shown only as \"\(Self.leftOutName)\", and so is a mode whose distance and time two persons make more than 85 % of "
            + "(dominance rule; docs/privacy.md); an hour or weekday that publishes nothing is empty.</p>"
            + SVGChart.stackedShares(
                categories: hours, modes: shown, values: values("hour", hours, minutes),
                title: "Travel time by mode and hour of day", unit: "min")
            + SVGChart.stackedShares(
                categories: CalendarKeys.weekdayNames, modes: shown, values: values("weekday", CalendarKeys.weekdayNames, minutes),
                title: "Travel time by mode and weekday", unit: "min")
            + SVGChart.bars(
                zip(shown, distance).map { (label: $0.0, value: $0.1, color: SVGChart.modeColors[$0.0] ?? "#888") },
                title: "Distance by mode", unit: "km")
            + "</section>"
    }

    func trips(_ split: PublishedSplit) throws -> String {
        let published = Set(split.modes)
        let all = facts.tripsByMode
        var rows = all.filter { published.contains($0.mode) }.map { row in
            // A magnitude: shown only where the dominance rule holds over its persons' trips (`TripFigures`).
            let shown = split.tripMagnitudesShown[row.mode] ?? false
            return [
                row.mode, String(row.trips), shown ? HTML.number(row.distanceMeters / 1000, 1) : "",
                shown ? HTML.duration(row.meanDurationSeconds) : "", String(row.devices), String(row.betweenGeofences)
            ]
        }
        let leftOut = all.filter { !published.contains($0.mode) }.reduce(0) { $0 + $1.trips }
        if leftOut > 0, !(try withholdsTotals()) { rows.append([Self.leftOutName, String(leftOut), "", "", "", ""]) }
        return "<section><h2>Trips</h2><p class=\"note\">Trips run between activities (stays of 15 min or more, or in a geofence "
            + "other than a station); the main mode covers the longest distance (\(perDeviceTable("trips.csv")), \(perDeviceTable("triplegs.csv")), \(perDeviceTable("triplegs.geojson"))).</p>"
            + HTML.table(
                ["main mode", "trips", "distance km", "mean duration", "devices", "between geofences"], rows, numeric: [1, 2, 3, 4, 5])
            + "</section>"
    }

    /// The k every published aggregate row meets: the last trip stage's or publish's.
    func minimumPersons() throws -> Int { facts.minimumPersons }

    /// `split`: the OD table's whole-day pairs, audited with the modal split the page shows (`publishedSplit`).
    func originDestination(_ published: ReportFacts.Published, _ split: PublishedSplit) throws -> String {
        let k = published.minimumPersons
        // The whole-day rows od_matrix.csv publishes, busiest first: the report shows no pair, and no
        // figure of one, that the audit of the OD table with the modal split left out.
        let pairs = split.odPairs
        let suppressed = try withholdsTotals() ? "the" : String(split.odPairsLeftOut)
        func name(_ id: String?) -> String { id.map { facts.geofenceNames[$0] ?? $0 } ?? "(no geofence)" }
        let rows = pairs.prefix(20).map { pair in
            [
                name(pair.origin), name(pair.destination), String(pair.trips), String(pair.persons),
                HTML.duration(pair.medianDurationSeconds), HTML.number(pair.medianDistanceMeters / 1000, 1)
            ]
        }
        let matrix = published.odMatrixLine.map { HTML.escape($0) + "." } ?? ""
        let grid =
            published.odGridLine.map {
                "<p class=\"note\">\(HTML.escape($0)); the pairs are in od_grid.csv and the GeoPackage's od_grid layer.</p>"
            } ?? ""
        let zones =
            published.odZonesLine.flatMap { $0.isEmpty ? nil : $0 }.map {
                "<p class=\"note\">\(HTML.escape($0)); the rows are in od_zones.csv and the GeoPackage's od_zones layer.</p>"
            } ?? ""
        return
            "<section><h2>Origin–destination</h2><p class=\"note\">The 20 busiest pairs of geofences od_matrix.csv publishes over the whole day, "
            + "each made by at least k = \(k) distinct persons (\(suppressed) pairs made by fewer, or left out so that those cannot be worked "
            + "out, are not shown; every published row, per time band too, is in od_matrix.csv). \(matrix)</p>"
            + HTML.table(["origin", "destination", "trips", "persons", "median duration", "median km"], rows, numeric: [2, 3, 4, 5]) + grid
            + zones
            + "</section>"
    }

    func dwellPlaces() throws -> String {
        let k = try minimumPersons()
        let (places, left) = facts.topDwellPlaces
        let suppressed = try withholdsTotals() ? "the" : String(left)
        let rows = places.map { place in
            [
                place.geofence, place.name, place.kind, String(place.dwells), String(place.persons), HTML.duration(place.totalSeconds),
                HTML.duration(place.meanSeconds)
            ]
        }
        return "<section><h2>Top dwell places</h2><p class=\"note\">Geofences by total time spent in them, among those at least k = \(k) "
            + "distinct persons dwelt in (\(suppressed) geofences fewer dwelt in are not shown; every dwell is in \(perDeviceTable("dwells.csv")), \(perDeviceTable("dwells.geojson"))).</p>"
            + HTML.table(["geofence", "name", "kind", "dwells", "persons", "total time", "mean dwell"], rows, numeric: [3, 4, 5, 6])
            + "</section>"
    }

    func heatMaps(_ published: ReportFacts.Published) throws -> String {
        let maps = published.heatMaps.filter { HeatMapLayers.isPublished(map: $0.map, cells: $0.cells) }
        guard !maps.isEmpty else { return "<section><h2>Heat maps</h2><p class=\"none\">No heat map in the store.</p></section>" }
        var html = "<section><h2>Heat maps</h2>"
        if let all = maps.first {
            html +=
                "<p class=\"note\">\(Int(all.cellMeters)) m cells; "
                + "a cell is shown only when at least k = \(all.minimumPersons) distinct persons were in it (a device without a named person counts as one). "
                + "a mode's map with no such cell is not published (it would say that fewer than k persons used the mode). "
                + "heatmap.csv and heatmap.geojson hold the same cells.</p>"
        }
        html += HTML.table(
            ["map", "filter", "cells shown", "cells suppressed"],
            maps.map {
                [$0.map, $0.filter, String($0.cells), String($0.suppressedCells)]
            }, numeric: [2, 3])
        for map in maps where map.cells > 0 {
            let name = map.map
            if name != "all" && !html.contains("class=\"maps\"") { html += "<div class=\"maps\">" }
            // Every region's image (`HeatMapFiles`: one per map and region, the first always), in order.
            var region = 0
            while let data = FileManager.default.contents(
                atPath: (folder as NSString).appendingPathComponent(HeatMapFiles.imageName(name, region: region)))
            {
                let caption = region == 0 ? name : "\(name), region \(region + 1)"
                html +=
                    "<figure><img alt=\"heat map \(HTML.escape(caption))\" src=\"data:image/png;base64,\(data.base64EncodedString())\">"
                    + "<figcaption class=\"note\">\(HTML.escape(caption))</figcaption></figure>"
                region += 1
            }
        }
        return html + (html.contains("class=\"maps\"") ? "</div>" : "") + "</section>"
    }

    static let nmvColors: [NMVClass: String] = [
        .veryComfortable: "#2e7d32", .comfortable: "#7cb342", .medium: "#f9a825",
        .uncomfortable: "#ef6c00", .veryUncomfortable: "#c62828"
    ]

    /// Per-train comfort and punctuality, and the continuous comfort of the longest measured ride.
    func comfort() throws -> String {
        let rides = facts.checkInRides
        guard !rides.isEmpty else { return "" }
        func median(_ group: [ReportFacts.CheckInRide], _ value: (ReportFacts.CheckInRide) -> Double?) -> Double? {
            ComfortSummary.quantile(group.compactMap(value), 0.5)
        }
        func format(_ value: Double?, _ digits: Int) -> String { value.map { HTML.number($0, digits) } ?? "–" }
        let ratings: [(ReportFacts.CheckInRide) -> Int?] = [\.cleanliness, \.odoursTemperature, \.crowding, \.service]
        // Only the trains train_comfort.csv publishes: k persons each, and none that would give one away (ComfortSummary.published).
        let persons = facts.devicePersons, k = try minimumPersons()
        func summaries(_ key: (ReportFacts.CheckInRide) -> String) -> [ComfortSummary] {
            Dictionary(grouping: rides, by: key).map { key, group in
                var reduced = ComfortGroup(key: key)
                (reduced.rides, reduced.persons) = (group.count, Set(group.map { persons[$0.device] ?? $0.device }).count)
                return ComfortSummary(group: reduced)
            }.sorted { $0.key < $1.key }
        }
        let shown = Set(
            ComfortSummary.published(
                trains: summaries(\.train), routes: summaries { "\($0.fromStation)\t\($0.toStation)" },
                minimumPersons: k
            ).trains.map(\.key))
        let byTrain = Dictionary(grouping: rides.filter { shown.contains($0.train) }, by: \.train).sorted { $0.key < $1.key }
        let table = byTrain.map { train, group -> [String] in
            let means = ratings.map { rating -> String in
                let given = group.compactMap(rating).map(Double.init)
                return given.isEmpty ? "–" : HTML.number(given.reduce(0, +) / Double(given.count), 1) + " (\(given.count))"
            }
            return [
                train, String(group.count), String(group.filter { $0.status == "measured" }.count),
                format(median(group, \.nmv), 2), format(median(group, \.aV), 3)
            ]
                + means + [
                    format(median(group, \.departureDelaySeconds).map { $0 / 60 }, 1),
                    format(median(group, \.arrivalDelaySeconds).map { $0 / 60 }, 1)
                ]
        }
        let status = Dictionary(grouping: rides, by: \.status).map {
            "\($0.value.count) \($0.key.replacingOccurrences(of: "_", with: " "))"
        }.sorted()
        var html =
            "<section><h2>Train comfort and punctuality</h2><p class=\"note\">\(rides.count) check-ins: \(status.joined(separator: ", ")) "
            + "(\(perDeviceTable("rides.csv")) lists each with its reason; \"no imu\": the phone recorded no accelerometer during the ride). N_MV is EN 12299's "
            + "mean comfort (< 1 very comfortable, 1–2 comfortable, 2–4 medium, 4–5 uncomfortable); a_v is ISO 2631-1's vibration total "
            + "value, m/s². Ratings are means (count) on 1–5; delays are medians in minutes, measured at the station geofences.</p>"
        html += HTML.table(
            [
                "train", "rides", "measured", "N_MV median", "a_v median", "cleanliness", "odours/temp.", "crowding", "service",
                "departure delay", "arrival delay"
            ], table, numeric: Set(1...10))
        let bars = byTrain.compactMap { train, group -> (label: String, value: Double, color: String)? in
            guard let median = median(group, \.nmv) else { return nil }
            return (train, median, Self.nmvColors[NMVClass(median)]!)
        }
        if !bars.isEmpty { html += SVGChart.bars(bars, title: "Median N_MV per train", unit: "") }
        let hidden = Set(rides.map(\.train)).subtracting(shown).count
        // Each ride's own values (its device, its time, its continuous comfort) are one person's: they are in rides.csv, not here.
        html +=
            "<p class=\"note\">Trains at least k = \(k) distinct persons rode, as train_comfort.csv publishes them; \(hidden) "
            + "trains fewer rode, or that would give one away, are not shown (docs/privacy.md). Each ride's values, including its "
            + "EN 12299 continuous comfort, are one person's and are in \(perDeviceTable("rides.csv")) only.</p>"
        return html + "</section>"
    }

    /// Rides measured from recordings without a check-in: comfort, stops and strong pushes.
    func recordingRides() throws -> String {
        let rides = facts.recordingRides
        guard !rides.isEmpty else { return "" }
        func format(_ value: Double?, _ digits: Int) -> String { value.map { HTML.number($0, digits) } ?? "–" }
        let table = rides.map { ride -> [String] in
            let nmv = format(ride.nmv, 2) + (ride.nmvPartial ? " (partial, \(format(ride.nmvMinutes, 1)) min)" : "")
            let vertical = ride.vertical ?? ""
            return [
                ride.device, time(ride.startedSeconds), format(ride.coveredSeconds, 0),
                ride.status.replacingOccurrences(of: "_", with: " "),
                nmv, format(ride.aV, 3), String(ride.stops), String(ride.brakings), String(ride.jerks),
                vertical.isEmpty ? "–" : vertical, ride.note ?? ""
            ]
        }
        return "<section><h2>Rides from recordings</h2><p class=\"note\">Recordings measured as rides of their own (no check-in): "
            + "each recording, or each part between pauses, from its first to its last sample; covered seconds leave gaps out. N_MV "
            + "(EN 12299) of a ride under 5 min is partial, over the 5 s values it has. Stops are found from the vibration alone "
            + "(\(perDeviceTable("stops.csv"))); brakings are longitudinal decelerations of 1 m/s² or more and jerks changes of 1 m/s³ or more (\(perDeviceTable("events.csv"))). "
            + "\"estimated\" vertical: gravity-free acceleration, the vertical taken as the direction of least slow motion.</p>"
            + HTML.table(
                ["device", "started", "covered s", "status", "N_MV", "a_v", "stops", "brakings", "jerks", "vertical", "note"],
                table, numeric: [2, 4, 5, 6, 7, 8]) + "</section>"
    }

    func classifier() throws -> String {
        var html = "<section><h2>Transport modes</h2>"
        if let modelPath, let model {
            let provenance = model.provenance
            let kind = HTML.escape(model.kind.rawValue), classes = model.classes.map(\.rawValue).joined(separator: ", ")
            // Its file name only: the page names no path of the machine that made it.
            html +=
                "<p>Model <code>\(HTML.escape((modelPath as NSString).lastPathComponent))</code> (\(kind), classes \(classes)"
                + String(format: ", %.0f s windows", model.window.lengthSeconds)
                + ") trained by <code>\(HTML.escape(provenance.command))</code> on \(provenance.recordings) recordings of "
                + "\(provenance.devices.count) devices.</p>"
            if let evaluation = provenance.evaluation { html += "<pre class=\"note\">\(HTML.escape(evaluation))</pre>" }
            html +=
                model.gpsLegs.map { legs in
                    "<p>GPS-only legs are named by its GPS leg model (\(HTML.escape(legs.kind.rawValue)), classes "
                        + legs.classes.map(\.rawValue).joined(separator: ", ") + ", trained on legs of \(legs.devices.count) devices).</p>"
                } ?? "<p class=\"note\">The model has no GPS leg model: legs without IMU data get their mode from the GPS-speed rules "
                + "(still, walk, bike, car only; no bus or train). Train one on labelled GPS tracks with <code>pipeline train</code>.</p>"
        } else {
            html += "<p>GPS-speed rules (no model).</p>"
        }
        guard isRestricted else {
            // Counts of windows and legs per mode and decider are not held to k: one person's rare mode would show.
            return html + (try transitUse())
                + "<p class=\"note\">How many windows and legs each source (and each transit feed) decided, per mode, is on the "
                + "operator's page (\(perDeviceTable("report.html"))): those counts are not held to k.</p></section>"
        }
        let decided = facts.windowDecisions.map { [$0.decidedBy, $0.mode, String($0.count)] }
        html += "<h3>Classified windows</h3>" + HTML.table(["decided by", "mode", "windows"], decided, numeric: [2])
        let legs = facts.legDecisions.map { [$0.decidedBy, $0.mode, String($0.count)] }
        if !legs.isEmpty {
            html +=
                "<h3>Triplegs</h3>" + HTML.table(["mode decided by", "mode", "legs"], legs, numeric: [2])
                + "<p class=\"note\">model: IMU windows; gps_rules: GPS speed rules; gps_leg_model: the GPS leg model on a GPS-only leg; "
                + "imu+gps_leg_model: IMU windows chose on foot or vehicle, the GPS leg model which mode; transit: the ride runs along "
                + "a rail or bus route of the --transit feed and stops at its stops; plausibility: speeds no ground mode reaches (a flight is "
                + "airplane, a jump between two fixes unknown); none: no IMU window and no GPS speed covered the leg (too few fixes, or "
                + "too far apart), so its mode is unknown. \(perDeviceTable("triplegs.csv")) keeps each leg's evidence.</p>"
            html += try transitUse()
        }
        html += try labelAgreement()
        return html + "</section>"
    }

    /// Which transit feed the trip stage matched the legs against and what it gave them; nothing
    /// when it had none (the legs' transit columns are then empty, and `mode_source` never says
    /// transit), so a run without a feed reads the same on one machine and on Spark, whose
    /// merged store keeps no such line.
    func transitUse() throws -> String {
        guard let use = facts.transitUse, !use.isEmpty else { return "" }
        // "feed NAME: …" or "feeds A: …; B: …" (`TransitRun.index`); the legs they named are counts of legs, not of k persons.
        let legs = isRestricted ? facts.transitLegs.flatMap { $0.isEmpty ? nil : "; " + $0 } ?? "" : ""
        return "<p>Transit " + HTML.escape(use + legs) + ".</p>"
    }

    /// Where labels exist: the triplegs' modes against the labelled mode, weighted by time.
    func labelAgreement() throws -> String {
        let rows = facts.labelledLegSeconds
        guard !rows.isEmpty else { return "" }
        var matrix: [String: [String: Double]] = [:]
        for row in rows { matrix[row.labelledMode, default: [:]][row.legMode] = row.seconds }
        let labels = Array(Set(matrix.keys).union(matrix.values.flatMap(\.keys))).sorted()
        let total = matrix.values.flatMap(\.values).reduce(0, +)
        let correct = labels.reduce(0.0) { $0 + (matrix[$1]?[$1] ?? 0) }
        let table = HTML.table(
            ["labelled \\ leg mode"] + labels,
            matrix.keys.sorted().map { truth in
                [truth] + labels.map { HTML.number((matrix[truth]?[$0] ?? 0) / 60) }
            }, numeric: Set(1...labels.count))
        return "<h3>Leg modes against labels</h3><p class=\"note\">Minutes of travel in legs, by labelled mode (rows) and the mode the "
            + "pipeline gave the leg (columns). \(HTML.number(100 * correct / max(total, 1), 1))% of labelled leg time has the labelled mode.</p>"
            + table
    }
}
