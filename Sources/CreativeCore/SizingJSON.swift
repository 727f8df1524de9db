/// The JSON of `slot --json` and `select --json`, shared by the CLI and the HTTP service.
public enum SizingJSON {
    /// An anchored slot: rule, points, scale, pixels.
    public static func anchored(width: Int, screenHeight: Int?, rule: AnchoredRule, scale: Double) -> JSONValue {
        let slot = SlotMath.anchoredSlot(width: width, screenHeight: screenHeight, rule: rule, scale: scale)
        return .object([
            ("mode", .string("anchored")),
            ("rule", .string(rule.rawValue)),
            ("estimate", .bool(rule.isEstimate)),
            ("screen_height_points", screenHeight.map { .int($0) } ?? .null),
            ("width_points", .int(slot.points.width)),
            ("height_points", .int(slot.points.height)),
            ("scale", .double(scale)),
            ("width_pixels", .int(slot.pixels.width)),
            ("height_pixels", .int(slot.pixels.height)),
        ])
    }

    /// A full-screen slot (interstitials): the screen, its safe-area insets, and the safe area the
    /// artwork is fitted in, in points and pixels.
    public static func fullScreen(_ deviceSlot: DeviceSlot) -> JSONValue {
        let area = deviceSlot.safeAreaPixels
        return .object([
            ("mode", .string("full_screen")),
            ("device", .string(deviceSlot.device.name)),
            ("orientation", .string(deviceSlot.orientation.rawValue)),
            ("screen_points", .string(deviceSlot.screenPoints.description)),
            ("scale", .double(deviceSlot.slot.scale)),
            ("screen_pixels", .string(deviceSlot.screenPixels.description)),
            ("insets_points", deviceSlot.insets.json),
            ("width_points", .int(deviceSlot.slot.points.width)),
            ("height_points", .int(deviceSlot.slot.points.height)),
            ("width_pixels", .int(area.width)),
            ("height_pixels", .int(area.height)),
            ("safe_area_pixels", area.json),
            ("close_button_pixels", CloseButton.square(in: deviceSlot).json),
        ])
    }

    /// A fixed standard slot (companions): the device, its class, the slot in points and pixels.
    public static func standard(_ deviceSlot: DeviceSlot) -> JSONValue {
        .object([
            ("mode", .string("standard_slot")),
            ("device", .string(deviceSlot.device.name)),
            ("device_class", .string(deviceSlot.device.deviceClass.rawValue)),
            ("width_points", .int(deviceSlot.slot.points.width)),
            ("height_points", .int(deviceSlot.slot.points.height)),
            ("scale", .double(deviceSlot.slot.scale)),
            ("width_pixels", .int(deviceSlot.slot.pixels.width)),
            ("height_pixels", .int(deviceSlot.slot.pixels.height)),
        ])
    }

    /// Each accepted size fitted into an inline view of `width` x `maxHeight` points.
    public static func inlineFits(width: Int, maxHeight: Int) -> [(entry: CatalogEntry, fitted: PixelSize)] {
        let box = PixelSize(width: width, height: maxHeight)
        return Catalog.entries.map { ($0, SlotMath.fit($0.size, into: box)) }
    }

    /// An inline view: its box and what each accepted size becomes in it.
    public static func inline(width: Int, maxHeight: Int, scale: Double) -> JSONValue {
        .object([
            ("mode", .string("inline")),
            ("width_points", .int(width)),
            ("max_height_points", .int(maxHeight)),
            ("scale", .double(scale)),
            ("width_pixels", .int(SlotMath.pixels(width, scale: scale))),
            ("max_height_pixels", .int(SlotMath.pixels(maxHeight, scale: scale))),
            ("fits", .array(inlineFits(width: width, maxHeight: maxHeight).map { entry, fitted in
                .object([("size", .string(entry.size.description)),
                         ("points", .string(fitted.description)),
                         ("pixels", .string(Slot(points: fitted, scale: scale).pixels.description))])
            })),
        ])
    }

    /// A selection: the request, the winner and the ranking, candidates named as the caller gave them.
    public static func selection(_ result: SelectionResult, names: [String]) -> JSONValue {
        let winner = result.ranking.first { $0.index == result.winner }
        return .object([
            ("mode", .string(result.mode.rawValue)),
            ("width", .int(result.width)),
            ("height", result.height.map { .int($0) } ?? .null),
            ("winner", .object([("candidate", .string(names[result.winner])),
                                ("size", .optional(winner?.size.description))])),
            ("ranking", .array(result.ranking.map { ranked in
                .object([("candidate", .string(names[ranked.index])),
                         ("size", .string(ranked.size.description)),
                         ("shape", .string(ranked.size.shape.rawValue)),
                         ("eligible", .bool(ranked.eligible)),
                         ("score", ranked.eligible ? .double(ranked.score) : .null),
                         ("note", .optional(ranked.note))])
            })),
        ])
    }
}
