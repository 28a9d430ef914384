import Features
import MobilityCore
import Testing

@Suite struct UniformResamplerTests {
    func sample(_ seconds: Double, _ x: Double) -> IMUSample {
        IMUSample(time: Timestamp(secondsSince1970: 1_700_000_000 + seconds), x: x, y: 2 * x, z: -x)
    }

    @Test func interpolatesALinearSignalExactly() {
        let jittery = [0.0, 0.013, 0.031, 0.05, 0.066, 0.08, 0.101].map { sample($0, $0 * 10) }
        let runs = UniformResampler(rateHz: 100).resample(jittery)
        #expect(runs.count == 1)
        let run = runs[0]
        #expect(run.count == 11)
        for (index, output) in run.enumerated() {
            let seconds = output.time.secondsSince1970 - 1_700_000_000
            #expect(abs(seconds - Double(index) * 0.01) < 1e-6)
            #expect(abs(output.x - seconds * 10) < 1e-6 && abs(output.y - 2 * output.x) < 1e-9)
        }
    }

    @Test func gapsSplitTheStreamInsteadOfBeingBridged() {
        let samples = [sample(0, 0), sample(0.1, 1), sample(0.2, 2), sample(5, 3), sample(5.1, 4)]
        let runs = UniformResampler(rateHz: 20, maxGapSeconds: 0.5).resample(samples)
        #expect(runs.count == 2)
        #expect(runs[0].last!.time.secondsSince1970 <= 1_700_000_000.2 + 1e-9)
        #expect(runs[1].first!.time.secondsSince1970 >= 1_700_000_005 - 1e-9)
    }

    @Test func emptyAndSingleSampleInputs() {
        #expect(UniformResampler().resample([]).isEmpty)
        #expect(UniformResampler().resample([sample(0, 1)]) == [[sample(0, 1)]])
    }
}
