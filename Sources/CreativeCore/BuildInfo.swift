/// The tool's own version, shared by `--version`, the service's start line and its
/// `creative_build_info` metric.
public enum BuildInfo {
    public static let version = "0.1.0"
}
