import Foundation
import MobilityCore
import Testing

/// The Butterworth design against SciPy's, an independent implementation:
/// `scipy.signal.butter(4, 20, fs=200, output='sos')` (SciPy 1.x) and `sosfreqz` of it.
@Suite struct BiquadTests {
    let sections = Biquad.butterworthLowPass(order: 4, cutoffHz: 20, rateHz: 200)

    @Test func denominatorsMatchSciPy() {
        // SciPy's sections, lowest Q first: (a1, a2).
        let scipy = [(-1.0485995763626117, 0.2961403575616696), (-1.3209134308194264, 0.6327387928852766)]
        #expect(sections.count == 2)
        for (section, expected) in zip(sections, scipy) {
            #expect(abs(section.a1 - expected.0) < 1e-12 && abs(section.a2 - expected.1) < 1e-12, "\(section)")
        }
    }

    @Test func cascadeMagnitudeMatchesSciPy() {
        // |H|² of SciPy's cascade at 10, 20, 30, 40 and 90 Hz.
        let scipy: [(Double, Double)] = [
            (10, 9.9682232438195173e-01), (20, 0.5), (30, 2.6617352843484363e-02),
            (40, 1.5974440894568683e-03), (90, 4.9193579287081638e-11)
        ]
        for (hz, expected) in scipy {
            let squared = sections.reduce(1.0) { $0 * pow($1.magnitude(atHz: hz, rateHz: 200), 2) }
            #expect(abs(squared - expected) <= 1e-9 * expected, "\(hz) Hz: \(squared)")
        }
        #expect(sections.allSatisfy { abs($0.gainAtZeroHz - 1) < 1e-12 })
    }

    /// `scipy.signal.butter(2, 3, btype='high', fs=50, output='sos')` and `sosfreqz` of it.
    @Test func highPassMatchesSciPy() {
        let section = Biquad.butterworthHighPass(order: 2, cutoffHz: 3, rateHz: 50)
        #expect(section.count == 1)
        let scipy = (b0: 0.7655999879134588, b1: -1.5311999758269177, a1: -1.475480443592646, a2: 0.5869195080611902)
        #expect(abs(section[0].b0 - scipy.b0) < 1e-12 && abs(section[0].b1 - scipy.b1) < 1e-12 && abs(section[0].b2 - scipy.b0) < 1e-12)
        #expect(abs(section[0].a1 - scipy.a1) < 1e-12 && abs(section[0].a2 - scipy.a2) < 1e-12)
        for (hz, magnitude) in [(1.0, 0.10813693708110511), (3, 0.7071067811865472), (10, 0.9976322689725888)] {
            #expect(abs(section[0].magnitude(atHz: hz, rateHz: 50) - magnitude) < 1e-12)
        }
    }

    /// Forwards and backwards: a 5 Hz sine comes out with its gain squared and no shift.
    @Test func zeroPhaseKeepsTimesAndSquaresTheGain() {
        let signal = (0..<2000).map { sin(2 * Double.pi * 5 * Double($0) / 200) }
        let filtered = ZeroPhase.filter(signal, sections)
        let gain = sections.reduce(1.0) { $0 * pow($1.magnitude(atHz: 5, rateHz: 200), 2) }
        for index in 400..<1600 { // away from the ends' transients
            #expect(abs(filtered[index] - gain * signal[index]) < 1e-6)
        }
        #expect(ZeroPhase.filter([], sections).isEmpty)
        #expect(ZeroPhase.filter([Double](repeating: 3, count: 50), sections).allSatisfy { abs($0 - 3) < 1e-12 })
    }

    /// The padded zero-phase filter against `scipy.signal.sosfiltfilt(butter(4, 20, fs=200,
    /// output='sos'), x)` for x = 9.81 + sin(2π·2t + 0.3) + 2·sin(2π·90t), 40 samples at 200 Hz.
    @Test func paddedFilterMatchesSciPysFiltfilt() {
        let x = (0..<40).map { i -> Double in
            let t = Double(i) / 200
            return 9.81 + sin(2 * Double.pi * 2 * t + 0.3) + 2 * sin(2 * Double.pi * 90 * t)
        }
        let scipy: [Double] = [
            10.091537981482299, 10.151270473807186, 10.213974332869558, 10.276213199515217,
            10.335427589868818, 10.39031880271824, 10.44071907978343, 10.487170822409979,
            10.53044540111522, 10.5711656701029, 10.609604668574418, 10.645655153940044,
            10.678920032337395, 10.708862979704586, 10.734969591951566, 10.756886617859276,
            10.774518504956989, 10.788063073726978, 10.797966731951025, 10.804784362159483,
            10.808949509049699, 10.810499217324885, 10.808845773163865, 10.802723288042216,
            10.790432253741772, 10.770435863773848, 10.742223165190907, 10.707173782404855,
            10.669002015977078, 10.633315837229086, 10.60598541430261, 10.590412934252083,
            10.58436919099571, 10.577626954229832, 10.551886843701284, 10.484151313940165,
            10.353583671486762, 10.150139419904725, 9.881505280600582, 9.574294845776015
        ]
        let filtered = ZeroPhase.filterPadded(x, sections)
        #expect(filtered.count == 40)
        for (ours, theirs) in zip(filtered, scipy) { #expect(abs(ours - theirs) < 1e-9, "\(ours) vs \(theirs)") }
    }
}
