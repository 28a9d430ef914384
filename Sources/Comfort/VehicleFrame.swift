import CBLAS
import Foundation

/// Uniformly sampled acceleration (m/s², phone axes) from one stretch of a ride without gaps.
public struct AccelerationPiece: Sendable {
    /// Time of the first sample, Unix seconds.
    public var startSeconds: Double
    public var x: [Double], y: [Double], z: [Double]

    public init(startSeconds: Double, x: [Double], y: [Double], z: [Double]) {
        (self.startSeconds, self.x, self.y, self.z) = (startSeconds, x, y, z)
    }

    public var count: Int { x.count }
}

/// Accelerations of a phone turned into the vehicle's frame: vertical, longitudinal, lateral,
/// for each piece of a ride (the pieces share one frame; the phone is taken to stay put).
///
/// Vertical. With gravity in the signal (an accelerometer, or linear acceleration plus the
/// gravity stream), ĝ is the mean of the accelerometer over the ride (the vehicle does not tilt
/// for long) and the vertical is the projection onto ĝ minus g. Gravity-free acceleration alone
/// (Android's linear acceleration, Sensor Logger's `Accelerometer.csv`) has no such mean, so
/// the vertical is estimated: the direction in which the 0.5 Hz low-passed acceleration varies
/// least (the eigenvector of the smallest eigenvalue of its 3×3 covariance). A vehicle's slow
/// accelerations, traction, braking and curving, are horizontal; its slow vertical
/// acceleration is near zero. On the two Sensor Logger metro rides the smallest eigenvalue is
/// 0.001–0.002 (m/s²)² against 0.06 and 0.18 for the others. The sign of "up" is then unknown.
///
/// Direction of travel: the principal axis of the horizontal acceleration after a 0.5 Hz
/// low-pass (traction and braking are slow and along the track; sway and vibration are
/// faster), from LAPACK's `dsyev`. Lateral is up × forward (left when forward and up are right).
/// An eigenvector's sign is arbitrary; `orientForward(stops:)` fixes it from the ride's stops
/// (a vehicle pulls away after a stop and brakes before one). Until then, and for the lateral
/// axis whenever "up" is only estimated, the signs are unknown, and every metric here except the
/// events' directions is even in them.
public struct VehicleFrame: Sendable {
    /// One gap-free piece of the ride in the vehicle's frame, m/s².
    public struct Piece: Sendable {
        public var startSeconds: Double
        public var vertical: [Double]
        public var longitudinal: [Double]
        public var lateral: [Double]
    }

    /// Where the vertical came from.
    public enum VerticalSource: String, Sendable, Codable {
        /// The mean of an accelerometer with gravity.
        case gravity
        /// Estimated from gravity-free acceleration: the direction of least slow motion.
        case estimated
    }

    public var pieces: [Piece]
    public var verticalSource: VerticalSource
    /// Unit vectors in the phone's frame.
    public var up: (Double, Double, Double)
    public var forward: (Double, Double, Double)
    /// Whether "forward" is known to point forward (set by `orientForward(stops:)`).
    public var forwardSignKnown = false
    /// Whether positive lateral is known to be left: forward's sign known, and up from gravity.
    public var lateralSignKnown: Bool { forwardSignKnown && verticalSource == .gravity }

    public static let travelLowPassHz = 0.5

    /// The whole ride's vertical, longitudinal and lateral accelerations, pieces end to end.
    public var vertical: [Double] { pieces.flatMap(\.vertical) }
    public var longitudinal: [Double] { pieces.flatMap(\.longitudinal) }
    public var lateral: [Double] { pieces.flatMap(\.lateral) }

    /// One piece of an accelerometer with gravity starting at 0 s.
    public init?(x: [Double], y: [Double], z: [Double], rateHz: Double) {
        self.init(pieces: [AccelerationPiece(startSeconds: 0, x: x, y: y, z: z)], rateHz: rateHz, gravityIncluded: true)
    }

    /// `pieces` sampled at `rateHz`. `gravityIncluded`: the acceleration holds gravity (nil when
    /// it does not: the mean is under 1 m/s²). With `gravityIncluded` false the vertical is estimated.
    public init?(pieces input: [AccelerationPiece], rateHz: Double, gravityIncluded: Bool) {
        let n = input.reduce(0) { $0 + $1.count }
        guard n >= 2, input.allSatisfy({ $0.y.count == $0.count && $0.z.count == $0.count }) else { return nil }
        var g = 0.0
        let up: (Double, Double, Double)
        if gravityIncluded {
            var mean = (0.0, 0.0, 0.0)
            for piece in input {
                mean.0 += piece.x.reduce(0, +); mean.1 += piece.y.reduce(0, +); mean.2 += piece.z.reduce(0, +)
            }
            mean = (mean.0 / Double(n), mean.1 / Double(n), mean.2 / Double(n))
            g = (mean.0 * mean.0 + mean.1 * mean.1 + mean.2 * mean.2).squareRoot()
            guard g > 1 else { return nil } // no gravity: not an accelerometer with gravity
            up = (mean.0 / g, mean.1 / g, mean.2 / g)
        } else {
            let slow = Self.slowChannels(input.map { [$0.x, $0.y, $0.z] }, rateHz: rateHz)
            up = Self.eigenvector(slow, largest: false)
        }
        var horizontalPieces: [[[Double]]] = []
        var verticals: [[Double]] = []
        for piece in input {
            var vertical = [Double](repeating: 0, count: piece.count)
            var horizontal = [[Double]](repeating: [Double](repeating: 0, count: piece.count), count: 3)
            for i in 0..<piece.count {
                let along = piece.x[i] * up.0 + piece.y[i] * up.1 + piece.z[i] * up.2
                vertical[i] = along - g
                horizontal[0][i] = piece.x[i] - along * up.0
                horizontal[1][i] = piece.y[i] - along * up.1
                horizontal[2][i] = piece.z[i] - along * up.2
            }
            verticals.append(vertical)
            horizontalPieces.append(horizontal)
        }
        let forward = Self.eigenvector(Self.slowChannels(horizontalPieces, rateHz: rateHz), largest: true)
        let side = (up.1 * forward.2 - up.2 * forward.1, up.2 * forward.0 - up.0 * forward.2, up.0 * forward.1 - up.1 * forward.0)
        pieces = input.indices.map { p in
            let h = horizontalPieces[p], count = input[p].count
            return Piece(
                startSeconds: input[p].startSeconds, vertical: verticals[p],
                longitudinal: (0..<count).map { h[0][$0] * forward.0 + h[1][$0] * forward.1 + h[2][$0] * forward.2 },
                lateral: (0..<count).map { h[0][$0] * side.0 + h[1][$0] * side.1 + h[2][$0] * side.2 })
        }
        verticalSource = gravityIncluded ? .gravity : .estimated
        (self.up, self.forward) = (up, forward)
    }

    /// Turns "forward" to point the way the vehicle goes, from its `stops` (Unix seconds): the
    /// 0.5 Hz low-passed longitudinal acceleration in the 15 s after each stop ends (pulling
    /// away) minus that in the 15 s before each stop starts (braking) is positive going
    /// forward. Without a stop inside the ride the sign stays unknown.
    public mutating func orientForward(stops: [(startSeconds: Double, endSeconds: Double)], rateHz: Double) {
        var evidence = 0.0, seen = 0
        for piece in pieces {
            let slow = ZeroPhaseFilter.lowPass(piece.longitudinal, rateHz: rateHz, cutoffHz: Self.travelLowPassHz)
            func mean(from start: Double, to end: Double) -> Double? {
                let first = max(0, Int(((start - piece.startSeconds) * rateHz).rounded(.up)))
                let last = min(slow.count, Int(((end - piece.startSeconds) * rateHz).rounded(.down)))
                guard last - first >= Int(rateHz) else { return nil }
                return slow[first..<last].reduce(0, +) / Double(last - first)
            }
            for stop in stops {
                if let after = mean(from: stop.endSeconds, to: stop.endSeconds + 15) { evidence += after; seen += 1 }
                if let before = mean(from: stop.startSeconds - 15, to: stop.startSeconds) { evidence -= before; seen += 1 }
            }
        }
        guard seen > 0, evidence != 0 else { return }
        forwardSignKnown = true
        guard evidence < 0 else { return }
        forward = (-forward.0, -forward.1, -forward.2)
        for p in pieces.indices {
            pieces[p].longitudinal = pieces[p].longitudinal.map { -$0 }
            pieces[p].lateral = pieces[p].lateral.map { -$0 } // up × (−forward)
        }
    }

    /// Each channel of every piece after the travel low-pass, pieces end to end.
    static func slowChannels(_ pieces: [[[Double]]], rateHz: Double) -> [[Double]] {
        (0..<3).map { axis in pieces.flatMap { ZeroPhaseFilter.lowPass($0[axis], rateHz: rateHz, cutoffHz: travelLowPassHz) } }
    }

    /// The eigenvector of the largest (or smallest) eigenvalue of the channels' covariance
    /// (LAPACK dsyev).
    static func eigenvector(_ channels: [[Double]], largest: Bool) -> (Double, Double, Double) {
        let n = channels[0].count
        // Centred channels as a 3 × n matrix; covariance = A·Aᵀ / n by one BLAS dsyrk (upper triangle).
        var centred = [Double]()
        centred.reserveCapacity(3 * n)
        for channel in channels {
            let mean = channel.reduce(0, +) / Double(n)
            centred += channel.map { $0 - mean }
        }
        var covariance = [Double](repeating: 0, count: 9)
        cblas_dsyrk(CblasRowMajor, CblasUpper, CblasNoTrans, 3, Int32(n), 1 / Double(n), centred, Int32(n), 0, &covariance, 3)
        var eigenvalues = [Double](repeating: 0, count: 3)
        let info = LAPACKE_dsyev(LAPACK_ROW_MAJOR, CChar(UInt8(ascii: "V")), CChar(UInt8(ascii: "U")), 3, &covariance, 3, &eigenvalues)
        guard info == 0 else { return largest ? (1, 0, 0) : (0, 0, 1) }
        // Eigenvalues ascend; row-major storage keeps eigenvectors in columns.
        let column = largest ? 2 : 0
        return (covariance[column], covariance[3 + column], covariance[6 + column])
    }
}
