/// The decisions of a platform profile's rules that need no pixels (docs/profiles.md): each
/// issue names the profile (``ValidationIssue/profile``) and starts with its name. The
/// validator asks these with what it found: the size, the format, the weight, CMYK colour, the
/// pre-flight's edge finding.
public enum ProfileChecks {
    /// Whether an upload of this size is accepted: by the product's catalog when no profile is
    /// checked, else by every profile checked (``PlatformProfile/accepts(_:product:)``). Only
    /// such a size is decoded.
    public static func accepts(_ size: PixelSize, product: Product, profiles: [PlatformProfile]) -> Bool {
        profiles.isEmpty ? product.entry(for: size) != nil : profiles.allSatisfy { $0.accepts(size, product: product) }
    }

    /// `dimensions_not_allowed` for a size the profile does not accept, naming the nearest it does.
    public static func dimensionsIssue(_ size: PixelSize, profile: PlatformProfile, product: Product) -> ValidationIssue? {
        guard !profile.accepts(size, product: product) else { return nil }
        let accepted = profile.acceptedSizes(for: product)
        guard !accepted.isEmpty else {
            var bounds: [String] = []
            if let minimum = profile.minimumSize { bounds.append("at least \(minimum)") }
            if let maximum = profile.maximumSize { bounds.append("at most \(maximum)") }
            return issue(.dimensionsNotAllowed, profile, "\(size) is not accepted: \(profile.name) takes images of "
                         + bounds.joined(separator: " and ") + " pixels, and no \(product) size is")
        }
        let nearest = Product.nearest(to: size, among: accepted).map(\.description).joined(separator: " or ")
        var bounds = ""
        if let minimum = profile.minimumSize, size.width < minimum.width || size.height < minimum.height {
            bounds = " (smaller than \(minimum))"
        } else if let maximum = profile.maximumSize, size.width > maximum.width || size.height > maximum.height {
            bounds = " (larger than \(maximum))"
        }
        return issue(.dimensionsNotAllowed, profile, "\(size) is not a size \(profile.name) accepts\(bounds); the nearest "
                     + "are \(nearest). Export the artwork at exactly one of: " + accepted.map(\.description).joined(separator: ", "))
    }

    /// `format_not_allowed` for a format the profile's platform does not take.
    public static func formatIssue(_ format: ImageFormat, profile: PlatformProfile) -> ValidationIssue? {
        guard let formats = profile.formats, !formats.contains(format) else { return nil }
        let names = formats.map { $0.rawValue.uppercased() }.joined(separator: ", ")
        return issue(.formatNotAllowed, profile, "\(format.rawValue.uppercased()) is not accepted; export it as \(names)")
    }

    /// `over_weight_limit` for an upload heavier than the profile allows for its size
    /// (``PlatformProfile/weightBudget(for:)``; without a size, its limit for any size).
    public static func weightIssue(bytes: Int, size: PixelSize?, profile: PlatformProfile) -> ValidationIssue? {
        guard let limit = size.map(profile.weightBudget(for:)) ?? profile.maxBytes, bytes > limit else { return nil }
        let which = size.map { size in profile.weightBudget(for: size) == profile.maxBytes ? "" : " for \(size)" } ?? ""
        return issue(.overWeightLimit, profile, "\(bytes) bytes is over the limit of \(limit) bytes\(which); "
                     + "compress it (fewer colours, PNG optimiser, or JPEG quality 80-85)")
    }

    /// `heavy_file` (a warning) over the profile's weight guideline.
    public static func guidelineIssue(bytes: Int, profile: PlatformProfile) -> ValidationIssue? {
        guard let guideline = profile.weightGuideline, bytes > guideline else { return nil }
        return issue(.heavyFile, profile, "\(bytes / 1000) KB is over the \(guideline / 1000) KB guideline; compress it "
                     + "(fewer colours, PNG optimiser, or JPEG quality 80-85)")
    }

    /// `cmyk_not_allowed` for CMYK colour where the profile's platform refuses it.
    public static func cmykIssue(profile: PlatformProfile) -> ValidationIssue? {
        guard profile.refusedColourSpaces.contains(.cmyk) else { return nil }
        return issue(.cmykNotAllowed, profile, "CMYK colour is refused; export it in sRGB")
    }

    /// `border_required` for the pre-flight's `edge_without_border` finding, where the profile's
    /// platform requires a contrasting border; the finding's regions are kept.
    public static func borderIssue(_ finding: ValidationIssue, profile: PlatformProfile) -> ValidationIssue? {
        guard profile.requiresBorder, finding.code == .edgeWithoutBorder else { return nil }
        return issue(.borderRequired, profile, "a white or black edge needs a visible border in a contrasting colour ("
                     + finding.message + ")", regions: finding.regions)
    }

    private static func issue(_ code: ValidationCode, _ profile: PlatformProfile, _ message: String,
                              regions: [PixelRect] = []) -> ValidationIssue {
        ValidationIssue(code, "\(profile.name): \(message)", regions: regions, profile: profile.name)
    }
}
