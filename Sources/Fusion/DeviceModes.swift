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
        // The moving fixes go straight to the form the GPS features take, with no copy of the
        // track between (a device's track is the largest thing the trip stage holds).
        var fixes: [PositionFix] = []
        fixes.reserveCapacity(moving.lazy.filter { $0 }.count)
        for (index, point) in track.points.enumerated() where moving[index] { fixes.append(PositionFix(point)) }
        return ModeTimeline(layers: [stored, GPSModeSpans.spans(fixes, device: track.device, legModel: legModel, legFeatures: legFeatures)])
    }
}
