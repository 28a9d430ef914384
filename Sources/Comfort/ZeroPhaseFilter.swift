import Foundation
import MobilityCore

/// Second-order Butterworth low- and high-passes run forwards and backwards (zero phase, the
/// magnitude squared), for the slow parts of a ride (traction, braking, sway) and for the
/// vibration band that tells a moving vehicle from a stopped one.
enum ZeroPhaseFilter {
    static func lowPass(_ signal: [Double], rateHz: Double, cutoffHz: Double) -> [Double] {
        ZeroPhase.filter(signal, Biquad.butterworthLowPass(order: 2, cutoffHz: min(cutoffHz, 0.45 * rateHz), rateHz: rateHz))
    }

    static func highPass(_ signal: [Double], rateHz: Double, cutoffHz: Double) -> [Double] {
        ZeroPhase.filter(signal, Biquad.butterworthHighPass(order: 2, cutoffHz: cutoffHz, rateHz: rateHz))
    }
}
