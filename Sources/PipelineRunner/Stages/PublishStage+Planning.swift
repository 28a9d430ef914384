import Foundation
import Ingest
import MobilityCore
import Publication
import Reports
import Store
import Trips

extension PublishStage {
    /// The planning tables (docs/planning.md), from the trips of valid person-days read once
    /// (`PlanningSample`): the persons' weights (with a population), `mode_shares.csv`,
    /// `od_zones.csv` (with a zone layer), `co2e.csv` and `person_co2e.csv`, in that order (each
    /// audited against the splits before it). A table the settings no longer ask for is removed. Adds
    /// to `outcome` what it wrote, said and how long each took (`weights`, `mode_shares`, `od_zones`, `co2e`, `review`).
    func planningFiles(into outcome: Outcome) throws -> Outcome {
        var outcome = outcome
        var clock = Date()
        func step(_ stage: String) { outcome.stageSeconds[stage] = Date().timeIntervalSince(clock); clock = Date() }
        func path(_ file: String) -> String { OutputLayout.path(file, in: outputFolder) }
        guard FileManager.default.fileExists(atPath: (tablesFolder as NSString).appendingPathComponent(OutputSchema.trips.file)) else {
            try store.setDerivedState(PipelineStore.noValidDayKey, "")
            ["weights", "od_zones", "mode_shares", "co2e", "review"].forEach(step)
            return outcome
        }
        let calendars = try store.localCalendars(dataset: calendar)
        let sample = try PlanningSample.read(
            outputFolder: outputFolder, tablesFolder: tablesFolder, persons: try store.devicePersons(), calendars: calendars)
        outcome.notes.append(sample.text)
        try store.setDerivedState(PipelineStore.noValidDayKey, sample.noValidDay ?? "") // for the report's first section
        var weights: ExpansionWeights?
        if let population, let zones {
            var attributes = population.attributes
            if attributes.isEmpty, !population.margins.isEmpty {
                let said: [String]
                (attributes, said) = try Self.manifestCategories(try store.manifestPaths(), variables: Set(population.margins.keys))
                outcome.notes += said
            }
            let (computed, summary) = try PersonWeightsOutput.write(
                sample, layer: zones, populationPath: population.path, zonePopulation: population.zones, margins: population.margins,
                attributes: attributes, outputFolder: outputFolder)
            weights = computed.weightsAnyone ? computed : nil
            try store.setDerivedState(
                PipelineStore.personWeightsKey, try JSONText.string(computed.weights, keys: .asDeclared, layout: .compact)) // the diary's
            outcome.weights = summary
            outcome.notes.append(PersonWeightsOutput.text(summary))
            if let warning = PersonWeightsOutput.implausibleWarning(summary) { outcome.warnings.append(warning) }
            outcome.files.append(path(PersonWeightsOutput.fileName))
        } else {
            try store.setDerivedState(PipelineStore.personWeightsKey, "")
            try? FileManager.default.removeItem(atPath: path(PersonWeightsOutput.fileName))
        }
        step("weights")
        // Each table of the same trips is audited against the splits published before it (`SplitMargins`):
        // the modal split's, then the mode shares' (trips of valid person-days, which od_zones.csv and co2e.csv count again).
        let split = [SplitMargins(text: try store.derivedState(PipelineStore.splitMarginsKey))].compactMap { $0 }
        var shares = try ModeSharesOutput(
            folder: outputFolder, bands: bands, minimumPersons: heatMap.minimumPersons, correction: confusion, tablesFolder: tablesFolder
        ).write(
            sample, calendars: calendars, weights: weights, margins: split)
        let earlier = split + [shares.published].compactMap { $0 }
        (shares.excludedPersonDays, shares.excludedTrips) = (sample.invalidPersonDays, sample.tripsOnInvalidDays)
        try store.setDerivedState(PipelineStore.modeSharesKey, ModeSharesOutput.text(shares)) // for the report
        outcome.modeShares = shares
        outcome.notes.append(ModeSharesOutput.text(shares))
        outcome.files.append(path(ModeSharesOutput.fileName))
        step("mode_shares")
        if let zones {
            var od = try ZoneODOutput(
                folder: outputFolder, layer: zones, bands: bands, minimumPersons: heatMap.minimumPersons, tablesFolder: tablesFolder
            ).write(sample, calendars: calendars, weights: weights, margins: earlier)
            (od.excludedPersonDays, od.excludedTrips) = (sample.invalidPersonDays, sample.tripsOnInvalidDays)
            try store.setDerivedState(PipelineStore.odZonesKey, ZoneODOutput.text(od)) // for the report
            outcome.odZones = od
            outcome.notes.append(ZoneODOutput.text(od))
            outcome.files.append(path(ZoneODOutput.fileName))
        } else {
            try store.setDerivedState(PipelineStore.odZonesKey, "")
            try? FileManager.default.removeItem(atPath: path(ZoneODOutput.fileName))
        }
        step("od_zones")
        let co2e = try CO2eOutput.write(
            sample, factors: emissionFactors, layer: zones, weights: weights, minimumPersons: heatMap.minimumPersons,
            outputFolder: outputFolder,
            countries: try CO2eOutput.countryTally(tablesFolder: tablesFolder, countries: countries, factors: emissionFactors),
            margins: earlier)
        try store.setDerivedState(PipelineStore.co2eKey, CO2eOutput.text(co2e)) // for the report
        try store.setDerivedState(
            PipelineStore.co2eFactorsKey,
            String(decoding: try JSONText.data(emissionFactors, keys: .snakeCase, layout: .compact), as: UTF8.self))
        outcome.co2e = co2e
        outcome.notes.append(CO2eOutput.text(co2e))
        outcome.files += [path(CO2eOutput.fileName), path(CO2eOutput.personFileName)]
        step("co2e")
        try ReviewOutput.write(tablesFolder: tablesFolder, persons: try store.devicePersons(), outputFolder: outputFolder)
        outcome.files.append(path(ReviewOutput.fileName))
        step("review")
        return outcome
    }

    /// The persons' categories of the margins' `variables` that the inputs' manifests carry
    /// (a column per variable; `PopulationReader.personAttributes`), when no persons file was
    /// given; with what to say of it. Two manifests giving one person two categories of a
    /// variable stop the stage; a manifest no longer found is said and left out.
    static func manifestCategories(_ manifests: [String], variables: Set<String>) throws -> ([String: [String: String]], [String]) {
        var carrying: [String] = [], said: [String] = []
        for manifest in manifests {
            guard FileManager.default.fileExists(atPath: manifest) else {
                said.append("weights: the manifest \(manifest) is no longer found: its persons' categories were not used")
                continue
            }
            let found = Set(try PopulationReader.personAttributes(path: manifest, variables: variables).values.flatMap { $0.keys })
            guard !found.isEmpty else { continue }
            carrying.append(manifest)
            said.append(
                "weights: each person's \(found.sorted().joined(separator: ", ")) from the manifest \(manifest) (no --person-attributes given)"
            )
        }
        return (try PopulationReader.personAttributes(paths: carrying, variables: variables), said)
    }
}
