import Foundation
import MobilityCore
import Simulate
import TestSupport
import Testing

@Suite struct SimulationTests {
    func write(seed: UInt64, to folder: TemporaryFolder, name: String) throws -> SimulationWriter.Summary {
        var parameters = SimulationParameters()
        parameters.devices = 4
        parameters.days = 2
        parameters.seed = seed
        parameters.imuTripsPerDay = 1
        parameters.imuDevices = 4
        let simulation = try Simulation(parameters: parameters)
        return try SimulationWriter(simulation: simulation, outputFolder: folder.file(name), truthFolder: folder.file(name + "-truth"))
            .write()
    }

    func files(_ folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let name = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let path = (folder as NSString).appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[name] = FileManager.default.contents(atPath: path)
            }
        }
        return files
    }

    @Test func theSameSeedGivesTheSameFilesAndAnotherSeedOthers() throws {
        let folder = try TemporaryFolder()
        let a = try write(seed: 3, to: folder, name: "a"), b = try write(seed: 3, to: folder, name: "b")
        _ = try write(seed: 4, to: folder, name: "c")
        #expect(a.fixes == b.fixes && a.imuSamples == b.imuSamples)
        #expect(try files(folder.file("a")) == files(folder.file("b")))
        #expect(try files(folder.file("a-truth")) == files(folder.file("b-truth")))
        #expect(try files(folder.file("a"))["phone-01/2024-05-06.gpx"] != files(folder.file("c"))["phone-01/2024-05-06.gpx"])
    }

    @Test func theTruthIsConsistent() throws {
        var parameters = SimulationParameters()
        parameters.devices = 8
        parameters.days = 7
        var simulation = try Simulation(parameters: parameters)
        simulation.plan()
        let truth = simulation.truth
        #expect(Set(truth.legs.map(\.mode)) == [.walk, .bike, .car, .train])
        for device in simulation.residents.map(\.device) {
            let stays = truth.stays.filter { $0.device == device }, legs = truth.legs.filter { $0.device == device }
            // Stays and legs tile the week without overlap.
            let periods = (stays.map { ($0.startSeconds, $0.endSeconds) } + legs.map { ($0.startSeconds, $0.endSeconds) }).sorted {
                $0.0 < $1.0
            }
            #expect(periods.first?.0 == simulation.startSeconds && periods.last?.1 == simulation.startSeconds + 7 * 86_400 - 1)
            for (a, b) in zip(periods, periods.dropFirst()) { #expect(a.1 <= b.0 + 1e-9 && b.0 - a.1 < 600, "\(device): \(a) then \(b)") }
            for leg in legs {
                #expect(leg.path.count == Int(leg.endSeconds - leg.startSeconds) + 1)
                let speed = leg.distanceMeters / (leg.endSeconds - leg.startSeconds)
                let range: ClosedRange<Double> =
                    switch leg.mode {
                    case .walk: 1...1.7;
                    case .bike: 3.5...6;
                    case .car: 3...14;
                    default: 10...30
                    }
                #expect(range.contains(speed), "\(leg.mode) at \(speed) m/s")
            }
        }
        // Weekdays take two trips or more; weekends one outing; train commuters ride twice a weekday.
        let rides = truth.rides.filter { $0.device == "phone-04" }
        #expect(rides.count == 10 && rides.allSatisfy { $0.departureSeconds >= $0.scheduledDepartureSeconds })
        for trip in truth.trips { #expect(trip.origin != trip.destination && trip.endSeconds > trip.startSeconds) }
    }

    @Test func unusableSettingsAreRefused() {
        var parameters = SimulationParameters()
        parameters.startDay = "May 6"
        let thrown1 = #expect(throws: PipelineError.self) { try Simulation(parameters: parameters) }
        #expect(thrown1?.code == .invalidSimulation)
        parameters = SimulationParameters()
        parameters.devices = 0
        let thrown2 = #expect(throws: PipelineError.self) { try Simulation(parameters: parameters) }
        #expect(thrown2?.code == .invalidSimulation)
    }
}
