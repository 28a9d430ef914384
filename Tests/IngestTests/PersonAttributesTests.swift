import Foundation
import Ingest
import MobilityCore
import TestSupport
import Testing

/// The persons' categories expansion weights are raked by (`--person-attributes`): a persons
/// file, or the inputs' manifest when it carries them per person.
@Suite struct PersonAttributesTests {
    @Test func aPersonsFileGivesEachPersonsCategories() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("persons.csv", "person,age_band,Car\nann,18-34,Yes\nbo,35-49,no\n")
        #expect(
            try PopulationReader.personAttributes(path: path)
                == ["ann": ["age_band": "18-34", "car": "yes"], "bo": ["age_band": "35-49", "car": "no"]])
    }

    /// A manifest has a row per recording (or glob): its own columns are not variables, a row
    /// without a person is its device's, and the rows of one person must agree.
    @Test func aManifestCarryingThemPerPersonGivesTheSame() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(
            "manifest.csv",
            """
            path,device,person,mode,timezone,age_band,car
            ann/phone/*.csv,ann-phone,ann,,Europe/Paris,18-34,yes
            ann/watch.gpx,ann-watch,ann,walk,,18-34,yes
            bo/*.gpx,bo-logger,,,,35-49,no

            """)
        #expect(
            try PopulationReader.personAttributes(path: path)
                == ["ann": ["age_band": "18-34", "car": "yes"], "bo-logger": ["age_band": "35-49", "car": "no"]])

        let disagree = try folder.write(
            "disagree.csv", "path,device,person,age_band\nann/a.gpx,a,ann,18-34\nann/b.gpx,b,ann,35-49\n")
        #expect {
            try PopulationReader.personAttributes(path: disagree)
        } throws: { error in
            (error as? PipelineError)?.code == .invalidPopulation && "\(error)".contains("disagree.csv:3")
                && "\(error)".contains("person ann has age_band 35-49 here and 18-34 on line 2")
        }
        let neither = try folder.write("neither.csv", "name,age_band\nann,18-34\n")
        #expect(throws: PipelineError.self) { try PopulationReader.personAttributes(path: neither) }
    }
}
