import Foundation
import MobilityCore
import Trips

/// Writes a device's day as a script (stay here, walk there, a gap) and gives the fixes and
/// the true modes. Positions are metres east and north of an origin near Paris.
struct TrackScript {
    static let originLatitude = 48.85, originLongitude = 2.35
    static let metresPerDegree = Geodesy.earthRadiusMeters * .pi / 180

    var points: [TrackPoint] = []
    var spans: [ModeSpan] = []
    var time = 1_700_000_000.0
    var position = SIMD2<Double>(0, 0)
    var intervalSeconds = 5.0
    var generator = SeededGenerator(seed: 7)

    static func coordinates(_ metres: SIMD2<Double>) -> (latitude: Double, longitude: Double) {
        (
            originLatitude + metres.y / metresPerDegree,
            originLongitude + metres.x / (metresPerDegree * cos(originLatitude * .pi / 180))
        )
    }

    mutating func fix(at metres: SIMD2<Double>, accuracy: Double = 10) {
        let (latitude, longitude) = Self.coordinates(metres)
        points.append(TrackPoint(timeSeconds: time, latitudeDegrees: latitude, longitudeDegrees: longitude, accuracyMeters: accuracy))
    }

    /// Fixes every `intervalSeconds` for `seconds`, scattered up to `jitterMeters` around here.
    mutating func stay(_ seconds: Double, jitterMeters: Double = 8) {
        let end = time + seconds
        while time < end {
            let offset = SIMD2(generator.nextUnit() * 2 - 1, generator.nextUnit() * 2 - 1) * jitterMeters
            fix(at: position + offset)
            time += intervalSeconds
        }
    }

    /// Straight to `target` at `speed`, with the true mode recorded.
    mutating func move(to target: SIMD2<Double>, speedMetersPerSecond speed: Double, mode: Mode) {
        let start = position, length = ((target - start) * (target - start)).sum().squareRoot()
        let seconds = length / speed
        let startTime = time
        var elapsed = 0.0
        while elapsed < seconds {
            fix(at: start + (target - start) * (elapsed / seconds))
            time += intervalSeconds
            elapsed += intervalSeconds
        }
        spans.append(ModeSpan(startSeconds: startTime, endSeconds: time, mode: mode, source: .model))
        position = target
    }

    mutating func gap(_ seconds: Double) { time += seconds }

    func track(_ device: String = "d1") -> DeviceTrack { DeviceTrack(device: device, points: points) }
    var timeline: ModeTimeline { ModeTimeline(layers: [spans]) }

    static func circle(_ id: String, at metres: SIMD2<Double>, radius: Double, kind: String = "zone") -> Geofence {
        let (latitude, longitude) = coordinates(metres)
        return Geofence(
            id: id, name: id.capitalized, kind: kind,
            shape: .circle(latitudeDegrees: latitude, longitudeDegrees: longitude, radiusMeters: radius))
    }

    static func square(_ id: String, centre: SIMD2<Double>, half: Double) -> Geofence {
        let corners = [SIMD2(-half, -half), SIMD2(half, -half), SIMD2(half, half), SIMD2(-half, half), SIMD2(-half, -half)]
        let ring = corners.map { corner -> GeoPoint in
            let (latitude, longitude) = coordinates(centre + corner)
            return GeoPoint(longitudeDegrees: longitude, latitudeDegrees: latitude)
        }
        return Geofence(id: id, name: id.capitalized, kind: "zone", shape: .polygon(rings: [ring]))
    }
}
