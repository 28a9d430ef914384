import ArgumentParser
import PipelineRunner
import Publication

/// k, one option for every command that publishes (`run`, `trips`, `heatmap`, `comfort`,
/// `publish`): it overrides `privacy.k` in `--config`.
struct PrivacyOptions: ParsableArguments {
    @Option(
        name: .customLong("k"),
        help: ArgumentHelp(
            "Publish only what at least k distinct persons made: heat-map cells, OD pairs, modal-split and mode-share rows, CO2e rows, comfort per train and route (a device without a named person counts as one). Default: privacy.k in --config, else \(PrivacyParameters().k).",
            valueName: "persons"))
    var k: Int?

    @Flag(
        name: .customLong("allow-identifying-k"),
        help: "Allow k below 2 (--k or privacy.k), which publishes what one person alone made (default: off; an error).")
    var allowIdentifyingK = false

    func validate() throws {
        if let k, let problem = PrivacyParameters.kProblem(k, allowed: allowIdentifyingK) { throw ValidationError(problem) }
    }

    /// `--k` over the configuration's `privacy.k`, checked against `--allow-identifying-k`.
    func apply(to configuration: inout PipelineConfiguration) throws {
        if let k { configuration.privacy.k = k }
        if let problem = PrivacyParameters.kProblem(configuration.privacy.k, allowed: allowIdentifyingK) { throw ValidationError(problem) }
    }

    /// k: `--k`, else the default.
    var resolved: Int { k ?? PrivacyParameters().k }
}
