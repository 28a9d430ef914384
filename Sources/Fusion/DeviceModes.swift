import Classify
import Features
import MobilityCore
import Trips

/// A device's modes over its whole track, as the trip stage cuts its legs by them.
public enum DeviceModes {
    /// Classified windows first, GPS where they are silent (`GPSModeSpans`: the leg model when
    /// given, else the rules). GPS only runs over the fixes outside staypoints (the only fixes
    /// legs are made of), which saves most of a day's windows.
    public static func timeline(
        _ track: DeviceTrack, stored: [ModeSpan], staypoints: [Staypoint], legModel: GPSLegModel? = nil,
        legFeatures: LegFeatures = LegFeatures()
    ) -> ModeTimeline {
        var moving = [Bool](repeating: true, count: track.points.count)
        for stay in staypoints { for index in stay.firstFix..<stay.endFix { moving[index] = false } }
        // The moving fixes are read from the track as the GPS features need them (`TrackFixes`),
        // never copied whole: a device's track is the largest thing the trip stage holds.
        let fixes = TrackFixes(track.points, where: moving)
        return ModeTimeline([
            .spans(stored), .windows(GPSModeSpans.spans(fixes, device: track.device, legModel: legModel, legFeatures: legFeatures))
        ])
    }
}
