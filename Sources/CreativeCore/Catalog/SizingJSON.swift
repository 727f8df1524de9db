/// The JSON of `slot --json` and `select --json`, shared by the CLI and the HTTP service.
public enum SizingJSON {
    /// An anchored slot: rule, points, scale, pixels.
    public static func anchored(width: Int, screenHeight: Int?, rule: AnchoredRule, scale: Double) -> JSONValue {
        let slot = SlotMath.anchoredSlot(width: width, screenHeight: screenHeight, rule: rule, scale: scale)
        return .object([
            ("slot_mode", .string(SelectionMode.anchored.rawValue)),
            ("rule", .string(rule.rawValue)),
            ("estimate", .bool(rule.isEstimate)),
            ("screen_height_points", screenHeight.map { .int($0) } ?? .null),
            ("slot_points", slot.points.json),
            ("scale", .double(scale)),
            ("slot_pixels", slot.pixels.json),
        ])
    }

    /// A full-screen slot (interstitials): the screen, its safe-area insets, and the safe area the
    /// artwork is fitted in, in points and pixels.
    public static func fullScreen(_ deviceSlot: DeviceSlot) -> JSONValue {
        .object([
            ("slot_mode", .string(SelectionMode.fullScreen.rawValue)),
            ("device", .string(deviceSlot.device.name)),
            ("orientation", .string(deviceSlot.orientation.rawValue)),
            ("screen_points", deviceSlot.screenPoints.json),
            ("scale", .double(deviceSlot.slot.scale)),
            ("screen_pixels", deviceSlot.screenPixels.json),
            ("insets_points", deviceSlot.insets.json),
            ("safe_area_points", deviceSlot.slot.points.json),
            ("safe_area_pixels", deviceSlot.safeAreaPixels.json),
            ("close_button_pixels", CloseButton.square(in: deviceSlot).json),
        ])
    }

    /// A fixed standard slot (companions): the device, its class, the slot in points and pixels.
    public static func standard(_ deviceSlot: DeviceSlot) -> JSONValue {
        .object([
            ("slot_mode", .string(SelectionMode.standardSlot.rawValue)),
            ("device", .string(deviceSlot.device.name)),
            ("device_class", .string(deviceSlot.device.deviceClass.rawValue)),
            ("slot_points", deviceSlot.slot.points.json),
            ("scale", .double(deviceSlot.slot.scale)),
            ("slot_pixels", deviceSlot.slot.pixels.json),
        ])
    }

    /// Each size a product accepts fitted into an inline view of `width` x `maxHeight` points.
    public static func inlineFits(width: Int, maxHeight: Int, product: Product) -> [(entry: CatalogEntry, fitted: PixelSize)] {
        let box = PixelSize(width: width, height: maxHeight)
        return product.entries.map { ($0, SlotMath.fit($0.size, into: box)) }
    }

    /// An inline view: its largest slot (the width by the max height) and what each size the
    /// product accepts becomes in it.
    public static func inline(width: Int, maxHeight: Int, scale: Double, product: Product) -> JSONValue {
        let box = Slot(points: PixelSize(width: width, height: maxHeight), scale: scale)
        return .object([
            ("slot_mode", .string(SelectionMode.inline.rawValue)),
            ("max_slot_points", box.points.json),
            ("scale", .double(scale)),
            ("max_slot_pixels", box.pixels.json),
            ("fits", .array(inlineFits(width: width, maxHeight: maxHeight, product: product).map { entry, fitted in
                .object([("artwork_pixels", entry.size.json),
                         ("slot_points", fitted.json),
                         ("slot_pixels", Slot(points: fitted, scale: scale).pixels.json)])
            })),
        ])
    }

    /// A selection: the request, the winner and the ranking, candidates named as the caller gave them.
    /// The slot's height is null when none was given (legacy mode).
    public static func selection(_ result: SelectionResult, names: [String]) -> JSONValue {
        let winner = result.ranking.first { $0.index == result.winner }
        return .object([
            ("slot_mode", .string(result.mode.rawValue)),
            ("slot_pixels", .object([("width", .int(result.width)), ("height", result.height.map { .int($0) } ?? .null)])),
            ("winner", .object([("candidate", .string(names[result.winner])),
                                ("size_pixels", winner?.size.json ?? .null)])),
            ("ranking", .array(result.ranking.map { ranked in
                .object([("candidate", .string(names[ranked.index])),
                         ("size_pixels", ranked.size.json),
                         ("shape", .string(ranked.size.shape.rawValue)),
                         ("eligible", .bool(ranked.eligible)),
                         ("score", ranked.eligible ? .double(ranked.score) : .null),
                         ("note", .optional(ranked.note))])
            })),
        ])
    }
}
