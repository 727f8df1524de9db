import CreativeCore

/// `creative-tool slot`: the banner slot for a width, by the anchored rules or inline sizing.
enum SlotCommand: Subcommand {
    static let name = "slot"
    static let summary = "compute the banner slot (points and pixels) for a screen width"
    static let usage = """
    usage: creative-tool slot --width W [--screen-height H] [--rule qartvelo|google]
                              [--inline [--max-height H]] [--scale N] [--json]
           creative-tool slot --product interstitial --device NAME --orientation portrait|landscape [--json]
           creative-tool slot --product companion --device NAME [--json]
      --width W          container width in points
      --screen-height H  screen height in points (anchored: caps the banner at 15% of it)
      --rule             qartvelo (default, the SDK's own rule) or google (an estimate)
      --inline           inline sizing: the biggest size fitting width x max height
      --max-height H     inline max height in points (default 250, at least 32)
      --scale N          pixels per point (default 1)
      --product          banner (default) or interstitial: the full screen of a device of the
                         table minus its safe-area insets, with the close button's square
      --device NAME      a device of the table (interstitial), for example "iPhone 15"
      --orientation      portrait (default) or landscape (interstitial)
                         companion: the device's fixed standard slot (phones 320x50 pt, iPads
                         728x90 pt) at its scale, the same in both orientations
    """
    static let options: Set<String> = ["--width", "--screen-height", "--rule", "--max-height", "--scale",
                                       "--product", "--device", "--orientation"]
    static let flags: Set<String> = ["--inline", "--json"]

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        let product = try Inputs.product(arguments)
        if product.slotRule == .fullScreenSafeArea {
            return try runFullScreen(arguments)
        }
        if product.slotRule == .fixedStandardSlot {
            return try runStandard(arguments, product: product)
        }
        if arguments.value("--device") != nil || arguments.value("--orientation") != nil {
            throw .usage("--device and --orientation are for --product interstitial")
        }
        guard let width = try arguments.int("--width", in: 1...PixelSize.maximumSide) else {
            throw .usage("--width W is required")
        }
        let scale = try arguments.double("--scale") ?? 1
        do { try SlotMath.checkScale(scale) } catch { throw .usage(error.description) }
        let json = arguments.flag("--json")
        if arguments.flag("--inline") {
            if arguments.value("--rule") != nil || arguments.value("--screen-height") != nil {
                throw .usage("--rule and --screen-height are for anchored slots, not --inline")
            }
            let maxHeight = SlotMath.inlineMaxHeight(try arguments.int("--max-height", in: 1...PixelSize.maximumSide))
            try printInline(width: width, maxHeight: maxHeight, scale: scale, json: json)
            return ExitCode.success
        }
        if arguments.value("--max-height") != nil { throw .usage("--max-height needs --inline") }
        let rule = try arguments.choice("--rule", AnchoredRule.self) ?? .qartvelo
        let screenHeight = try arguments.int("--screen-height", in: 1...PixelSize.maximumSide)
        let slot = SlotMath.anchoredSlot(width: width, screenHeight: screenHeight, rule: rule, scale: scale)
        if json {
            try Streams.outLine(SizingJSON.anchored(width: width, screenHeight: screenHeight, rule: rule, scale: scale)
                .serialized())
        } else {
            let note = rule.isEstimate ? " (estimate of Google's anchored adaptive size)" : ""
            try Streams.outLine("\(slot.points) pt @\(TextFormat.scale(scale))x = \(slot.pixels) px, "
                + "anchored, rule \(rule.rawValue)\(note)")
        }
        return ExitCode.success
    }

    /// The interstitial slot of one device in one orientation.
    private static func runFullScreen(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        for banner in ["--width", "--screen-height", "--rule", "--max-height", "--scale"] where arguments.value(banner) != nil {
            throw .usage("\(banner) is for banner slots; an interstitial slot comes from --device and --orientation")
        }
        if arguments.flag("--inline") { throw .usage("--inline is for banner slots") }
        let deviceSlot = try Inputs.fullScreenSlot(arguments)
        if arguments.flag("--json") {
            try Streams.outLine(SizingJSON.fullScreen(deviceSlot).serialized())
            return ExitCode.success
        }
        let insets = deviceSlot.insets, area = deviceSlot.safeAreaPixels
        try Streams.outLine("\(deviceSlot.slot.points) pt @\(TextFormat.scale(deviceSlot.slot.scale))x = \(area.size) px, "
            + "interstitial, \(deviceSlot.device.name) \(deviceSlot.orientation.rawValue): screen \(deviceSlot.screenPoints) pt "
            + "(\(deviceSlot.screenPixels) px) minus insets top \(insets.top), left \(insets.left), bottom \(insets.bottom), "
            + "right \(insets.right) pt; safe area at (\(area.x),\(area.y)) px; close button \(CloseButton.square(in: deviceSlot)) px")
        return ExitCode.success
    }

    /// The fixed standard slot of one device (companions).
    private static func runStandard(_ arguments: ParsedArguments, product: Product) throws(CLIError) -> Int32 {
        for banner in ["--width", "--screen-height", "--rule", "--max-height", "--scale", "--orientation"]
        where arguments.value(banner) != nil {
            throw .usage("\(banner) is not for \(product) slots; the slot is fixed per device: give --device NAME")
        }
        if arguments.flag("--inline") { throw .usage("--inline is for banner slots") }
        let device = try Inputs.device(arguments)
        guard let deviceSlot = DeviceSlot.standard(device, product: product) else {
            throw .usage("\(product) has no standard slot for \(device.name)")
        }
        if arguments.flag("--json") {
            try Streams.outLine(SizingJSON.standard(deviceSlot).serialized())
            return ExitCode.success
        }
        try Streams.outLine("\(deviceSlot.slot.points) pt @\(TextFormat.scale(deviceSlot.slot.scale))x = "
            + "\(deviceSlot.slot.pixels) px, \(product) standard slot, \(device.name) (\(device.deviceClass.rawValue), "
            + "both orientations)")
        return ExitCode.success
    }

    private static func printInline(width: Int, maxHeight: Int, scale: Double, json: Bool) throws(CLIError) {
        let box = PixelSize(width: width, height: maxHeight)
        if json {
            try Streams.outLine(SizingJSON.inline(width: width, maxHeight: maxHeight, scale: scale).serialized())
        } else {
            try Streams.outLine("inline: up to \(box) pt @\(TextFormat.scale(scale))x; the ad takes the "
                + "biggest size that fits, keeping its proportions:")
            for (entry, fitted) in SizingJSON.inlineFits(width: width, maxHeight: maxHeight) {
                try Streams.outLine("  \(entry.size) -> \(fitted) pt (\(Slot(points: fitted, scale: scale).pixels) px)")
            }
        }
    }
}
