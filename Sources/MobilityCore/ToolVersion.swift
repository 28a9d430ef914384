/// The product's version, in one place: `pipeline --version`, the report's footer, a model's
/// provenance, and what a run's outputs depend on (a new version re-runs every stage and
/// re-classifies every file, since what it computes may have changed).
public enum ToolVersion {
    public static let string = "0.5.0"
}
