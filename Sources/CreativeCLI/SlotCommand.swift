import CreativeCore

/// `creative-tool slot`: the banner slot for a width, by the anchored rules or inline sizing.
enum SlotCommand: DeclaredCommand {
    static let name = "slot"
    static let summary = "compute the slot (points and pixels) of a product for a screen width or a device"
    static let declared = SlotRequest.options.on(.commandLine) + [CommonOptions.json]
    static let help = CommandHelp(
        synopsis: ["--width W [--screen-height H] [--rule R] [--scale N] [--json]",
                   "--width W --inline [--max-height H] [--scale N] [--json]",
                   "--device NAME [--orientation O] [--product \(Product.names)] [--json]"],
        notes: ["Banners: the anchored strip for the width (or the device's screen at its scale), or inline sizing.",
                "Interstitials: the device's whole screen minus its safe-area insets, with the close button's square.",
                "Companions: the device's fixed standard slot (phones 320x50 pt, iPads 728x90 pt) at its scale."],
        examples: ["--width 390 --scale 3", "--device \"iPhone 15\" --orientation landscape",
                   "--product interstitial --device \"iPad Air\" --json"])

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
        let request = try CLIError.reading { () throws(CoreError) in try SlotRequest(arguments) }
        if arguments.flag(CommonOptions.json.flag) {
            try Streams.outJSON(request.json)
            return ExitCode.success
        }
        switch request.answer {
        case .anchored(let width, let screenHeight, let rule, let scale):
            let slot = SlotMath.anchoredSlot(width: width, screenHeight: screenHeight, rule: rule, scale: scale)
            let note = rule.isEstimate ? " (estimate of Google's anchored adaptive size)" : ""
            let device = request.device.map { ", \($0.device.name) \($0.orientation.rawValue)" } ?? ""
            try Streams.outLine("\(slot.points) pt @\(TextFormat.scale(scale))x = \(slot.pixels) px, "
                + "anchored, rule \(rule.rawValue)\(note)\(device)")
        case .inline(let width, let maxHeight, let scale):
            if let given = try? arguments.int(SlotRequest.maxHeight), given < maxHeight {
                Streams.errLine("creative-tool slot: note: \(SlotRequest.maxHeight.flag) \(given) is below the smallest "
                                + "inline view, \(maxHeight) pt: sizing for \(maxHeight)")
            }
            try printInline(width: width, maxHeight: maxHeight, scale: scale, product: request.product)
        case .fullScreen(let deviceSlot):
            try printFullScreen(deviceSlot, product: request.product)
        case .standard(let deviceSlot):
            try Streams.outLine("\(deviceSlot.slot.points) pt @\(TextFormat.scale(deviceSlot.slot.scale))x = "
                + "\(deviceSlot.slot.pixels) px, \(request.product) standard slot, \(deviceSlot.device.name) "
                + "(\(deviceSlot.device.deviceClass.rawValue), both orientations)")
        }
        return ExitCode.success
    }

    /// The full-screen slot (an interstitial's) of one device in one orientation.
    private static func printFullScreen(_ deviceSlot: DeviceSlot, product: Product) throws(CLIError) {
        let insets = deviceSlot.insets, area = deviceSlot.safeAreaPixels
        try Streams.outLine("\(deviceSlot.slot.points) pt @\(TextFormat.scale(deviceSlot.slot.scale))x = \(area.size) px, "
            + "\(product), \(deviceSlot.device.name) \(deviceSlot.orientation.rawValue): screen \(deviceSlot.screenPoints) pt "
            + "(\(deviceSlot.screenPixels) px) minus insets top \(insets.top), left \(insets.left), bottom \(insets.bottom), "
            + "right \(insets.right) pt; safe area at (\(area.x),\(area.y)) px; close button \(CloseButton.square(in: deviceSlot)) px")
    }

    private static func printInline(width: Int, maxHeight: Int, scale: Double, product: Product) throws(CLIError) {
        let box = PixelSize(width: width, height: maxHeight)
        try Streams.outLine("inline: up to \(box) pt @\(TextFormat.scale(scale))x; the ad takes the "
            + "biggest size that fits, keeping its proportions:")
        for (entry, fitted) in SizingJSON.inlineFits(width: width, maxHeight: maxHeight, product: product) {
            try Streams.outLine("  \(entry.size) -> \(fitted) pt (\(Slot(points: fitted, scale: scale).pixels) px)")
        }
    }
}
