import Foundation
import Ingest
import MobilityCore
import TestSupport
import Testing

/// The confusion a corrected modal split reads: `pipeline evaluate --json`'s object, or a CSV.
@Suite struct ConfusionCountsReaderTests {
    @Test func evaluatesJSONGivesItsCountsAndNamesItsData() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(
            "evaluation.json",
            """
            {"evaluated":"held-out persons (5 folds by person)","confusion":{"labels":["car","walk"],"matrix":[[8,2],[1,9]]},
             "scored_data":{"persons":31,"windows":20,"files":3,"devices":3,"legs":0,"inputs":[],"unscored":[]}}
            """)
        let (counts, source) = try ConfusionCountsReader.read(path: path)
        #expect(
            counts == [
                .init(person: nil, truth: "car", predicted: "car", count: 8), .init(person: nil, truth: "car", predicted: "walk", count: 2),
                .init(person: nil, truth: "walk", predicted: "car", count: 1),
                .init(person: nil, truth: "walk", predicted: "walk", count: 9)
            ])
        #expect(source == "evaluation.json (held-out persons (5 folds by person); 31 persons, 20 windows)")
    }

    @Test func aCSVWithPersonsAndOneThatIsNoConfusionSayWhatTheyAre() throws {
        let folder = try TemporaryFolder()
        let good = try folder.write("c.csv", "person,true_mode,predicted_mode,count\nann,walk,walk,4\nann,walk,bike,1\nbo,car,car,3\n")
        let (counts, source) = try ConfusionCountsReader.read(path: good)
        #expect(counts.count == 3 && counts[1] == .init(person: "ann", truth: "walk", predicted: "bike", count: 1))
        #expect(source == "c.csv (8 labelled units of 2 persons)")
        let bad = try folder.write("bad.csv", "true_mode,predicted_mode,count\nwalk,walk,many\n")
        #expect {
            try ConfusionCountsReader.read(path: bad)
        } throws: { error in
            (error as? PipelineError)?.code == .invalidConfusionMatrix && "\(error)".contains("bad.csv:2")
        }
        let header = try folder.write("header.csv", "mode,count\nwalk,3\n")
        #expect(throws: PipelineError.self) { try ConfusionCountsReader.read(path: header) }
    }
}
