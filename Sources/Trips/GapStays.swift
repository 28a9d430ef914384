import MobilityCore

extension StaypointDetector {
    /// The sliding staypoints of `track` (`detect`) with the stays across its recording gaps
    /// (`gapStays`), in time order: what the trip stage builds legs and trips between.
    public func stays(_ track: DeviceTrack) -> [Staypoint] {
        let sliding = detect(track)
        guard parameters.gapStayMaxSeconds > 0 else { return sliding }
        let gaps = gapStays(track, sliding: sliding)
        guard !gaps.isEmpty else { return sliding }
        return (sliding + gaps).sorted { $0.firstFix < $1.firstFix }
    }

    /// Stays across recording gaps. A phone that records only on the move (iOS, an app that
    /// sleeps when still), or one switched off overnight, leaves a gap where its person stayed:
    /// trackintel's sliding detection drops a stay that a gap of more than `gapSeconds` interrupts
    /// ("a gap never becomes a stay"), so the trip that ends there has no destination and the
    /// night at home is untracked time.
    ///
    /// A gap between consecutive fixes of `timeSeconds` or more (5 minutes: the shortest stay
    /// trackintel counts), up to `gapStayMaxSeconds` (24 hours), whose next fix lies within
    /// `distanceMeters` (100 m: the staypoint radius) of the last fix before it, is a stay at that
    /// place, unless a sliding staypoint already spans it. Its fixes are the last fix before the
    /// gap and the fixes just before that within `distanceMeters` of it (where the person arrived,
    /// back to the end of the previous stay); like every staypoint it ends at the first fix
    /// outside it, the first fix after the gap. A longer gap, or one that ends elsewhere (the
    /// person moved while the phone was quiet), stays untracked: where they were is not known.
    ///
    /// Stays across gaps are their own rows (`kind` `gap`): the sliding staypoints are
    /// trackintel's, unchanged.
    ///
    /// - Complexity: O(n) in the fixes, a distance only at each gap of `timeSeconds` or more.
    public func gapStays(_ track: DeviceTrack, sliding: [Staypoint]) -> [Staypoint] {
        let points = track.points
        guard points.count > 1 else { return [] }
        var stays: [Staypoint] = []
        var stay = 0 // the first sliding stay that does not end before the gap
        var earliest = 0 // the first fix no stay before the gap holds
        for last in 0..<(points.count - 1) {
            let gap = points[last + 1].timeSeconds - points[last].timeSeconds
            guard gap >= parameters.timeSeconds, gap <= parameters.gapStayMaxSeconds else { continue }
            while stay < sliding.count, sliding[stay].endFix <= last {
                earliest = max(earliest, sliding[stay].endFix)
                stay += 1
            }
            if stay < sliding.count, sliding[stay].firstFix <= last { continue } // a sliding stay spans the gap
            guard TrackPoint.distanceMeters(points[last], points[last + 1]) < parameters.distanceMeters else { continue }
            var first = last
            while first > earliest, points[first].timeSeconds - points[first - 1].timeSeconds <= parameters.gapSeconds,
                TrackPoint.distanceMeters(points[first - 1], points[last]) < parameters.distanceMeters
            {
                first -= 1
            }
            let centre = Self.centroid(points[first...last])
            var found = Staypoint(
                device: track.device, firstFix: first, endFix: last + 1, startSeconds: points[first].timeSeconds,
                endSeconds: points[last + 1].timeSeconds, latitudeDegrees: centre.latitudeDegrees,
                longitudeDegrees: centre.longitudeDegrees, isOpen: false)
            found.kind = .gap
            stays.append(found)
            earliest = last + 1
        }
        return stays
    }
}
