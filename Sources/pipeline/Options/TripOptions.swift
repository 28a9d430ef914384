import ArgumentParser
import PipelineRunner
import Store
import Trips

extension TrackGrouping: ExpressibleByArgument {}
extension LocationParameters.Scope: ExpressibleByArgument {}

/// Every parameter of the trip stages, with its default and unit.
struct TripOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Staypoint radius around the stay's first fix, metres.", valueName: "m"))
    var staypointDistance = StaypointParameters().distanceMeters

    @Option(help: ArgumentHelp("Shortest staypoint, seconds.", valueName: "s"))
    var staypointTime = StaypointParameters().timeSeconds

    @Option(help: ArgumentHelp("A time between fixes longer than this ends a stay, splits a leg and a trip, seconds.", valueName: "s"))
    var gap = StaypointParameters().gapSeconds

    @Flag(inversion: .prefixedNo, help: "Emit the stay still open when a track ends (trackintel include_last; its default is off).")
    var lastStay = StaypointParameters().includeLast

    @Option(
        help: ArgumentHelp(
            "The longest recording gap that is a stay when its next fix lies within --staypoint-distance of its last (a phone quiet where its person stayed), seconds; 0: none, trackintel's staypoints alone.",
            valueName: "s"))
    var gapStayMax = StaypointParameters().gapStayMaxSeconds

    @Option(help: ArgumentHelp("Consecutive fixes inside a geofence that confirm an entry.", valueName: "n"))
    var dwellEnterFixes = DwellParameters().enterFixes

    @Option(help: ArgumentHelp("Time inside a geofence that confirms an entry with fewer fixes, seconds.", valueName: "s"))
    var dwellEnterTime = DwellParameters().enterSeconds

    @Option(help: ArgumentHelp("Time outside the accuracy-buffered boundary that confirms an exit, seconds.", valueName: "s"))
    var dwellExitTime = DwellParameters().exitSeconds

    @Option(help: ArgumentHelp("Shortest dwell kept, seconds.", valueName: "s"))
    var dwellMinimum = DwellParameters().minimumDwellSeconds

    @Option(help: ArgumentHelp("Longest time without fixes that does not end a dwell, seconds.", valueName: "s"))
    var dwellMaxGap = DwellParameters().maxGapSeconds

    @Option(help: ArgumentHelp("Largest accuracy buffer on the exit boundary, metres.", valueName: "m"))
    var dwellMaxBuffer = DwellParameters().maxAccuracyBufferMeters

    @Option(help: ArgumentHelp("DBSCAN radius for locations, metres.", valueName: "m"))
    var locationEpsilon = LocationParameters().epsilonMeters

    @Option(help: ArgumentHelp("Staypoints within the radius (itself included) that make a DBSCAN core point.", valueName: "n"))
    var locationMinimum = LocationParameters().minimumStaypoints

    @Option(help: "Cluster locations per device or across the whole data set (device, dataset).")
    var locationScope = LocationParameters().scope

    @Option(help: ArgumentHelp("Mode runs shorter than this join their neighbour, seconds.", valueName: "s"))
    var minimumLeg = TripParameters().minimumLegSeconds

    @Option(help: ArgumentHelp("Staypoints this long are activities that end trips, seconds.", valueName: "s"))
    var activityMinimum = TripParameters().activityMinimumSeconds

    @Option(help: "Geofence kinds where a short stay is a transfer inside a trip, not an activity (comma-separated).")
    var transferKinds = TripParameters().transferKinds.sorted().joined(separator: ",")

    @Option(
        help: ArgumentHelp(
            "A stay shorter than this between a bus, train or boat leg and the next is a change of vehicle inside the trip, not an activity, seconds; 0: never.",
            valueName: "s"))
    var transferMaximum = TripParameters().transferMaximumSeconds

    @Option(
        help: ArgumentHelp(
            "How long before and after such a stay its public-transport legs may end and start (the walk between platforms), seconds.",
            valueName: "s"))
    var transferWalk = TripParameters().transferWalkSeconds

    @Option(help: "One track per device, or per file (device, file).")
    var trackBy = TrackGrouping.device

    var parameters: TripStageParameters {
        var parameters = TripStageParameters()
        parameters.staypoints.distanceMeters = staypointDistance
        parameters.staypoints.timeSeconds = staypointTime
        parameters.staypoints.gapSeconds = gap
        parameters.staypoints.includeLast = lastStay
        parameters.staypoints.gapStayMaxSeconds = gapStayMax
        parameters.dwells.enterFixes = dwellEnterFixes
        parameters.dwells.enterSeconds = dwellEnterTime
        parameters.dwells.exitSeconds = dwellExitTime
        parameters.dwells.minimumDwellSeconds = dwellMinimum
        parameters.dwells.maxGapSeconds = dwellMaxGap
        parameters.dwells.maxAccuracyBufferMeters = dwellMaxBuffer
        parameters.locations.epsilonMeters = locationEpsilon
        parameters.locations.minimumStaypoints = locationMinimum
        parameters.locations.scope = locationScope
        parameters.trips.gapSeconds = gap
        parameters.trips.minimumLegSeconds = minimumLeg
        parameters.trips.activityMinimumSeconds = activityMinimum
        (parameters.trips.transferMaximumSeconds, parameters.trips.transferWalkSeconds) = (transferMaximum, transferWalk)
        parameters.trips.transferKinds =
            (transferKinds.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }).sorted()
        return parameters
    }

    func validate() throws {
        let positive = [
            ("--staypoint-distance", staypointDistance), ("--staypoint-time", staypointTime), ("--gap", gap),
            ("--location-epsilon", locationEpsilon)
        ]
        for (name, value) in positive where !(value > 0) { throw ValidationError("\(name) must be a positive number, got \(value)") }
        let nonNegative = [
            ("--dwell-enter-time", dwellEnterTime), ("--dwell-exit-time", dwellExitTime), ("--dwell-minimum", dwellMinimum),
            ("--dwell-max-gap", dwellMaxGap), ("--dwell-max-buffer", dwellMaxBuffer), ("--minimum-leg", minimumLeg),
            ("--activity-minimum", activityMinimum), ("--gap-stay-max", gapStayMax), ("--transfer-maximum", transferMaximum),
            ("--transfer-walk", transferWalk)
        ]
        for (name, value) in nonNegative where !(value >= 0) { throw ValidationError("\(name) must be 0 or more, got \(value)") }
        if dwellEnterFixes < 1 { throw ValidationError("--dwell-enter-fixes must be 1 or more") }
        if locationMinimum < 1 { throw ValidationError("--location-minimum must be 1 or more") }
    }
}
