import MobilityCore

/// What decides a device's legs as wholes before trips are made of them (the evidence's fusion,
/// then its person's corrections), fed the legs of each piece of its track in turn and
/// finished once with all of them.
public protocol DeviceLegDecisions {
    /// Decides `legs`, made of `piece`'s fixes (their indices point into it).
    mutating func decide(_ piece: DeviceTrack, legs: inout [Tripleg])
    /// The device's legs once every piece's are decided (their indices into the whole track,
    /// in order): adds and orders what needs every fix (legs by time), and corrects.
    mutating func finish(_ legs: inout [Tripleg])
}

/// One device's trip stages over its fixes handed over in pieces, in time order (the store's
/// `forEachTrackPiece`): the same staypoints, dwells, legs and trips as `TripAnalysis.analyse` on
/// the whole track, compacted (`DeviceTrips.compacted`), while holding only the fixes since the
/// last long stay (a night at home: a day's fixes, where the whole track was a year's).
///
/// Where the track may be cut: at the first fix of a stay of `cutSeconds` or more, or at the
/// first fix after `cutSeconds` or more without one (a logger that records only on the move,
/// such as a vehicle tracker that wakes on motion, is off between its trips: its track has
/// gaps where a phone's has stays). The staypoint scan's only state is its anchor, and a
/// stay's first fix is one, as is the first fix after a gap longer than the scan's
/// `gapSeconds`, so the stays from there on are the whole track's; such a gap also ends every
/// movement (the legs' `gapSeconds`). Everything else that joins fixes joins them within a
/// movement between stays, or across less than an hour: a leg's fixes and its evidence, the
/// GPS windows' context (up to 750 s, `WindowFeatureExtractor.widestContextSeconds`), the
/// smoothing's chains and the leg decision's runs (60 s), IMU windows near a fix (60 s). So the
/// fixes up to and including the one that ended the stay (or the first after the gap) give
/// every result before it, and the fixes from its first on give it and everything after. What
/// needs the whole device waits for the end, from what each piece leaves: geofence dwells (a
/// state machine fed every fix once, `DwellDetector.Scan`), which IMU windows a fix is near
/// (`DeviceLegDecisions`), the stays' activities and the trips (from the stays, dwells and legs
/// alone), the observed time and the zone's samples.
///
/// Without such a stay or gap (a track that never stops) the fixes are held until the end, as
/// `TripAnalysis.analyse` holds them: past `memoryFixes`, in a file in `fixFolder`.
public struct TrackPieceAnalysis<Legs: DeviceLegDecisions> {
    let analysis: TripAnalysis
    let device: String
    let modes: (DeviceTrack, [Staypoint]) -> ModeTimeline
    private var legs: Legs
    /// A stay this long, or longer, is where the track may be cut, seconds; so is a gap this
    /// long that is also longer than the staypoints' and the legs' `gapSeconds`. Default 3,600.
    /// It must exceed the longest reach listed above (750 s), or the results may differ.
    public var cutSeconds = 3_600.0
    /// How often the track was cut so far.
    public private(set) var cuts = 0
    /// Whether the fixes held since the last cut are in `fixFolder`'s file.
    public var fixesInFile: Bool { buffer.isInFile }
    /// Where the legs' lines are written as they are made (nil: kept in memory). A run keeps
    /// every device's results until all are stored, and their lines were most of them.
    public var lineSpool: TextSpool? {
        didSet { lineWriter = lineSpool.map(TextSpool.Writer.init) }
    }
    private var lineWriter: TextSpool.Writer?
    /// Where the fixes held are written once there are more than `memoryFixes` (beside the
    /// store); nil: they are all held in memory. A track that never stops is held whole.
    public var fixFolder: String? {
        get { buffer.directory }
        set { buffer.directory = newValue }
    }
    /// Fixes held in memory before the rest go to `fixFolder`'s file: 262,144 (8 MiB).
    public var memoryFixes: Int {
        get { buffer.memoryFixes }
        set { buffer.memoryFixes = newValue }
    }

    /// The fixes since the last cut (the first is the cut stay's first fix, or the first fix
    /// after the cut gap), and the index of the first in the whole track.
    private var buffer = HeldFixes()
    private var offset = 0
    /// Where the staypoint scan of `buffer` stopped: its anchor, and the first fix it did not read.
    private var anchor = 0, next = 0
    /// The results before the last cut, their fix indices into the whole track; each leg's line
    /// and first fix by its fixes' range (legs by time and reordering come in `finish`).
    private var staypoints: [Staypoint] = []
    private var triplegs: [Tripleg] = []
    private var lines: [SIMD2<Int>: (line: SpooledText, start: GeoPoint, end: GeoPoint)] = [:]
    private var dwells: DwellDetector.Scan
    private var observed = ObservedTime()
    private var zone = DeviceZone.Sampler(boundaries: nil)
    /// Where the device's zone is looked up from its fixes; nil: its zone is given (no sampling).
    public var zoneBoundaries: ZoneBoundaries? {
        didSet { zone = DeviceZone.Sampler(boundaries: zoneBoundaries) }
    }

    public init(
        _ analysis: TripAnalysis, device: String, geofences: [Geofence], modes: @escaping (DeviceTrack, [Staypoint]) -> ModeTimeline,
        legs: Legs
    ) {
        (self.analysis, self.device, self.modes, self.legs) = (analysis, device, modes, legs)
        dwells = DwellDetector.Scan(DwellDetector(parameters: analysis.parameters.dwells), device: device, geofences: geofences)
    }

    /// The next fixes: in time order, each later than every fix before (as `DeviceTrack` sorts
    /// and de-duplicates them). Throws when the fixes held cannot be written to `fixFolder`.
    public mutating func add(_ piece: [TrackPoint]) throws {
        dwells.feed(piece[...])
        observed.add(piece[...])
        zone.add(piece[...])
        let gap = lastLongGap(in: piece).map { $0 + buffer.count }
        try buffer.append(piece)
        let held = buffer.points
        let stays: [Staypoint]
        (stays, anchor, next) = analysis.staypointDetector.closedStays(
            DeviceTrack(device: device, sortedUniquePoints: held), from: anchor, next: next)
        let stay = stays.last { $0.firstFix > 0 && $0.durationSeconds >= cutSeconds }
        if let gap, gap >= stay?.firstFix ?? 0 {
            // The fixes up to the first after the gap, which drops a stay in progress before it
            // as on the whole track; the gap ended every stay and leg that began before it.
            analyse(held[...gap], before: gap)
            cut(at: gap)
        } else if let stay {
            // The fixes up to the one that ended the stay (one past its end: a ride's gap ends it
            // a fix later); what comes after the stay in them is made again from the next piece.
            analyse(held[..<min(held.count, stay.endFix + 2)], before: stay.firstFix)
            cut(at: stay.firstFix)
        }
    }

    /// The last fix of `piece` that comes after a gap where the track may be cut (see
    /// `cutSeconds`), from the last fix held before it; nil without one.
    private func lastLongGap(in piece: [TrackPoint]) -> Int? {
        let parameters = analysis.parameters
        let longest = max(cutSeconds, parameters.staypoints.gapSeconds.nextUp, parameters.trips.gapSeconds.nextUp)
        let held = buffer.points
        let before = held.last?.timeSeconds
        return piece.indices.last { index in
            guard let previous = index > 0 ? piece[index - 1].timeSeconds : before else { return false }
            return piece[index].timeSeconds - previous >= longest
        }
    }

    /// Lets the buffer's fixes before `first` go (their results are kept).
    private mutating func cut(at first: Int) {
        assert(anchor >= first, "the staypoint scan is anchored at or after the cut")
        buffer.removeFirst(first)
        cuts += 1
        offset += first
        anchor -= first
        next -= first
    }

    /// The device's results: those of every piece, with its dwells, trips, observed time, and
    /// its zone along the fixes (`DeviceZone.Sampler.zone`).
    public mutating func finish() -> (trips: DeviceTrips, zone: LocalCalendars.Zone?) {
        if buffer.count > 0 { analyse(buffer.points, before: nil) }
        buffer = HeldFixes()
        legs.finish(&triplegs)
        let dwells = self.dwells.finish()
        let builder = TripBuilder(parameters: analysis.parameters.trips)
        builder.annotate(&staypoints, dwells: dwells, triplegs: triplegs)
        let kept = triplegs.map { $0.byTime ? nil : lines[SIMD2($0.firstFix, $0.lastFix)] }
        let trips = builder.build(staypoints: staypoints, triplegs: &triplegs) { leg, first in first ? kept[leg]?.start : kept[leg]?.end }
        let result = DeviceTrips(
            device: device, staypoints: staypoints, dwells: dwells, triplegs: triplegs, trips: trips, observed: observed,
            lines: kept.map { $0?.line }, starts: kept.map { $0?.start })
        return (result, zone.zone)
    }

    /// `TripAnalysis.analyse`'s stages over `points` (from the buffer's first fix), keeping the
    /// stays and legs that begin before fix `before` (nil: all of them).
    private mutating func analyse(_ points: TrackPoints, before: Int?) {
        let track = DeviceTrack(device: device, sortedUniquePoints: points)
        let stays = analysis.staypointDetector.stays(track)
        var pieceLegs = TriplegBuilder(parameters: analysis.parameters.trips).build(track, staypoints: stays, modes: modes(track, stays))
        legs.decide(track, legs: &pieceLegs)
        let limit = before ?? points.count
        let base = staypoints.count
        for var stay in stays where stay.firstFix < limit {
            stay.firstFix += offset
            stay.endFix += offset
            staypoints.append(stay)
        }
        for var leg in pieceLegs where leg.firstFix < limit {
            let (first, last) = (track.points[leg.firstFix], track.points[leg.lastFix])
            let line: SpooledText
            if let spool = lineSpool {
                // Written point by point (in place: a copy of the writer would copy its block):
                // a long leg's line is never whole in memory.
                track.writeLineStringGeoJSON(leg.firstFix...leg.lastFix, to: &lineWriter!)
                line = .spooled(spool, lineWriter!.end())
            } else {
                line = .inMemory(track.lineStringGeoJSON(leg.firstFix...leg.lastFix))
            }
            leg.firstFix += offset
            leg.lastFix += offset
            leg.previousStaypoint = leg.previousStaypoint.map { $0 + base }
            // A piece cut at a gap begins with the fix that ended the stay across it, kept with the
            // piece before: on the whole track, the leg from that fix follows that stay.
            if leg.previousStaypoint == nil, base > 0, staypoints[base - 1].kind == .gap, staypoints[base - 1].endFix == leg.firstFix {
                leg.previousStaypoint = base - 1
            }
            leg.nextStaypoint = leg.nextStaypoint.map { $0 + base }
            lines[SIMD2(leg.firstFix, leg.lastFix)] = (
                line, GeoPoint(longitudeDegrees: first.longitudeDegrees, latitudeDegrees: first.latitudeDegrees),
                GeoPoint(longitudeDegrees: last.longitudeDegrees, latitudeDegrees: last.latitudeDegrees)
            )
            triplegs.append(leg)
        }
    }
}
