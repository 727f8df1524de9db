import CreativeCore

/// `creative-tool slot`: the banner slot for a width, by the anchored rules or inline sizing.
enum SlotCommand: Subcommand {
    static let name = "slot"
    static let summary = "compute the banner slot (points and pixels) for a screen width"
    static let usage = """
    usage: creative-tool slot --width W [--screen-height H] [--rule qartvelo|google]
                              [--inline [--max-height H]] [--scale N] [--json]
      --width W          container width in points
      --screen-height H  screen height in points (anchored: caps the banner at 15% of it)
      --rule             qartvelo (default, the SDK's own rule) or google (an estimate)
      --inline           inline sizing: the biggest size fitting width x max height
      --max-height H     inline max height in points (default 250, at least 32)
      --scale N          pixels per point (default 1)
    """
    static let options: Set<String> = ["--width", "--screen-height", "--rule", "--max-height", "--scale"]
    static let flags: Set<String> = ["--inline", "--json"]

    static func run(_ arguments: ParsedArguments) throws(CLIError) -> Int32 {
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
