import Features
import MobilityCore
import Testing

@Suite struct UniformGridTests {
    let origin = 1_700_000_000.0

    func sample(_ seconds: Double, _ x: Double) -> IMUSample {
        IMUSample(time: Timestamp(secondsSince1970: origin + seconds), x: x, y: 2 * x, z: -x)
    }

    @Test func interpolatesALinearSignalExactly() {
        let jittery = [0.0, 0.013, 0.031, 0.05, 0.066, 0.08, 0.101].map { sample($0, $0 * 10) }
        let grid = UniformGrid(covering: jittery, rateHz: 100)
        #expect(grid.count == 11)
        let axes = grid.resample(jittery, maxGapSeconds: 0.5)
        for index in 0..<grid.count {
            let seconds = grid.time(at: index) - origin
            #expect(abs(axes[0][index] - seconds * 10) < 1e-6)
            #expect(abs(axes[1][index] - 2 * axes[0][index]) < 1e-9 && abs(axes[2][index] + axes[0][index]) < 1e-9)
        }
    }

    @Test func gapsAreNotBridged() {
        let samples = [sample(0, 0), sample(0.1, 1), sample(0.2, 2), sample(5, 3), sample(5.1, 4)]
        let grid = UniformGrid(covering: samples, rateHz: 20)
        let x = grid.resample(samples, maxGapSeconds: 0.5)[0]
        #expect(x[0] == 0 && x[2] == 1 && x[4] == 2)
        #expect(x[5...99].allSatisfy { $0.isNaN })
        #expect(abs(x[100] - 3) < 1e-6 && abs(x[102] - 4) < 1e-6)
    }

    @Test func pointsOutsideTheSamplesAreNaN() {
        let grid = UniformGrid(start: Timestamp(secondsSince1970: origin - 1), rateHz: 10, count: 40)
        let x = grid.resample([sample(0, 1), sample(1, 2)], maxGapSeconds: 2)[0]
        #expect(x[0..<10].allSatisfy { $0.isNaN } && x[21...].allSatisfy { $0.isNaN })
        #expect(x[10] == 1 && abs(x[15] - 1.5) < 1e-9 && abs(x[20] - 2) < 1e-9)
    }

    @Test func emptyAndSingleSampleInputs() {
        let empty = UniformGrid(covering: [], rateHz: 50)
        #expect(empty.count == 0 && empty.resample([], maxGapSeconds: 1)[0].isEmpty)
        let one = UniformGrid(covering: [sample(0, 7)], rateHz: 50)
        #expect(one.count == 1 && one.resample([sample(0, 7)], maxGapSeconds: 1)[0] == [7])
    }
}
