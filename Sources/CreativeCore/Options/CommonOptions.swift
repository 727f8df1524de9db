/// Options several operations share, declared once: the product, the device of the table and
/// its orientation, and the rule that turns the two into the product's slot on that device.
public enum CommonOptions {
    /// `--product NAME`, `product=NAME`.
    public static let product = OptionDeclaration(
        "product", .choice(Product.allCases.map(\.rawValue)), placeholder: "NAME",
        help: "the product: " + Product.allCases.map(\.rawValue).joined(separator: ", "),
        defaultValue: Product.defaultProduct.rawValue)

    /// `--device NAME`, `device=NAME`: a device of the table.
    public static let device = OptionDeclaration(
        "device", .choice(Devices.all.map(\.name)), placeholder: "NAME",
        help: "a device of the table, for example \"iPhone 15\": the product's slot on it (banners: the "
            + "anchored strip; interstitials: the whole screen, artwork in its safe area; companions: "
            + "the standard slot)")

    /// `--orientation portrait|landscape`.
    public static let orientation = OptionDeclaration(
        "orientation", .choice(Orientation.allCases.map(\.rawValue)), placeholder: "O",
        help: "the device's orientation (needs --device; not for companions, whose slot is the same in both)",
        defaultValue: Orientation.portrait.rawValue)

    /// `--json`: machine-readable output (the command line only; the service always answers JSON).
    public static let json = OptionDeclaration("json", .toggle, help: "print JSON instead of the line for people",
                                               defaultValue: "false", surfaces: .commandLine)

    /// `--profile P[,Q]`, `profile=P[,Q]`: the platform profiles whose rules apply
    /// (``PlatformProfiles``), read by ``profiles(_:)``. Declared once for `validate`, `guidance`
    /// and the render side.
    public static let profile = OptionDeclaration(
        "profile", .text(maxLength: 512), placeholder: "P[,Q]",
        help: "the platforms' upload rules to check, comma-separated: " + PlatformProfiles.names.joined(separator: ", ")
            + " (docs/profiles.md)",
        defaultValue: PlatformProfile.defaultName, mistakenNames: ["platform", "profiles"])

    /// The profiles named by ``profile``, in the order given; nil when the option is absent (the
    /// caller's default is ``PlatformProfiles/network``).
    /// - Throws: ``CoreError/invalidValue(_:)`` for an unknown name (a near miss names the
    ///   profile meant), an empty name or a name given twice.
    public static func profiles(_ source: some OptionSource) throws(CoreError) -> [PlatformProfile]? {
        guard let text = try source.text(profile) else { return nil }
        var chosen: [PlatformProfile] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = String(part).lowercased()
            guard let found = PlatformProfiles.named(name) else {
                let names = PlatformProfiles.names
                let given = TextFormat.clipped(String(part), 64)
                if name.isEmpty {
                    throw .invalidValue("\(source.spelling(profile)) has an empty name; give one or more of "
                                         + names.joined(separator: ", ") + ", comma-separated")
                }
                let meant = KeySuggestion.nearest(to: name, in: names).map { "; did you mean '\($0)'?" } ?? ""
                throw .invalidValue("\(source.spelling(profile)) must name profiles of " + names.joined(separator: ", ")
                                     + ", not '\(given)'" + meant)
            }
            guard !chosen.contains(found) else {
                throw .invalidValue("\(source.spelling(profile)) names '\(found.name)' twice")
            }
            chosen.append(found)
        }
        return chosen
    }

    /// The product given, or the default.
    public static func product(_ source: some OptionSource) throws(CoreError) -> Product {
        try source.choice(product, Product.self) ?? .defaultProduct
    }

    /// The product's slot on the device given (`device`, and `orientation`, default portrait);
    /// nil when neither is given.
    /// - Throws: ``CoreError/invalidRequest(_:)`` for an orientation without a device, an
    ///   orientation for a product whose slot has none, or a device class the product has no slot for.
    public static func deviceSlot(_ source: some OptionSource, product: Product) throws(CoreError) -> DeviceSlot? {
        guard source.has(device) || source.has(orientation) else { return nil }
        guard let named = try source.device(device) else {
            throw .invalidRequest("\(source.spelling(orientation)) needs \(source.spelling(device)) NAME")
        }
        if !product.slotHasOrientation, source.has(orientation) {
            throw .invalidRequest("\(source.spelling(orientation)) is not for \(product): its slot is the same "
                                  + "in both orientations")
        }
        let turned = try source.choice(orientation, Orientation.self) ?? .portrait
        guard let slot = product.slot(on: named, turned) else {
            throw .invalidRequest("\(product) has no slot on \(named.name)")
        }
        return slot
    }
}
