import Foundation
import MobilityCore
import TestSupport
import Testing

@testable import PipelineRunner

/// Without `--person-attributes`, the margins' categories come from the manifests among the
/// store's inputs (`PublishStage.manifestCategories`).
@Suite struct ManifestCategoriesTests {
    /// A column that is no margin (ann's two phones' notes differ) is not read at all.
    @Test func theManifestsCategoriesOfTheMarginsAreTakenAndTheirDisagreementsRefused() throws {
        let folder = try TemporaryFolder()
        let a = try folder.write(
            "a/manifest.csv", "path,device,person,car,note\nx/*.gpx,x,ann,Yes,first phone\nw/*.gpx,w,ann,yes,second phone\ny.gpx,y,,no,\n")
        let b = try folder.write("b/manifest.csv", "path,device,person,age_band\nz.gpx,z,bo,18-34\n")
        let gone = folder.file("c/manifest.csv")
        let (categories, said) = try PublishStage.manifestCategories([a, b, gone], variables: ["car"])
        #expect(
            categories == ["ann": ["car": "yes"], "y": ["car": "no"]], "only the margins' variables; a row without a person is its device's"
        )
        #expect(
            said.count == 2 && said[0].contains("each person's car from the manifest \(a)")
                && said[1].contains("\(gone) is no longer found"))

        let other = try folder.write("d/manifest.csv", "path,device,person,car\nw.gpx,w,ann,no\n")
        #expect {
            try PublishStage.manifestCategories([a, other], variables: ["car"])
        } throws: { error in
            "\(error)".contains("person ann has car no here and yes in \(a)")
        }
    }
}
