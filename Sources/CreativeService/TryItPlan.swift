import CreativeCore

/// What the try-it page knows before any upload, from the one catalog and device plan: per
/// product its accepted sizes and, per accepted size, every device slot of the product with the
/// size the ad server would serve there when that size is the whole campaign. The page shows
/// the slots an upload is served in (from `process`'s manifest); for several uploads, which of
/// them serves each slot (from the campaign route's `campaign.json`). Embedded in the page's
/// script as one JSON literal.
enum TryItPlan {
    /// One slot of a product's plan: device, class, orientation, slot in points and scale, the
    /// screen in points, the size served; full-screen slots add the safe area and the close
    /// button's square, in screen pixels.
    static func slotJSON(_ assignment: SlotAssignment) -> JSONValue {
        let slot = assignment.deviceSlot
        var fields: [(String, JSONValue)] = [
            ("device", .string(slot.device.name)),
            ("class", .string(slot.device.deviceClass.rawValue)),
            ("orientation", .string(slot.orientationName)),
            ("points", .string(slot.slot.points.description)),
            ("scale", .double(slot.slot.scale)),
            ("screen", .string(slot.screenPoints.description)),
            ("served", .string(assignment.artwork.description)),
        ]
        if slot.sizing == .fullScreen {
            let area = slot.safeAreaPixels, close = CloseButton.square(in: slot)
            fields.append(("safe_area", .array([area.x, area.y, area.width, area.height].map { .int($0) })))
            fields.append(("close", .array([close.x, close.y, close.width, close.height].map { .int($0) })))
        }
        return .object(fields)
    }

    /// `{"banner": {"title", "sizes", "plans": {"960x150": [slot, ...]}}, ...}`.
    static let json: JSONValue = .object(Product.allCases.map { product in
        (product.rawValue, .object([
            ("title", .string(product.title)),
            ("sizes", .array(product.sizes.map { .string($0.description) })),
            ("plans", .object(product.sizes.map { size in
                (size.description, .array(DevicePlan.plan(with: size, campaign: [], product: product).map(slotJSON)))
            })),
        ]))
    })

    /// The JSON as a script literal: `<` written `\u003c`, so no text can close the script element.
    static let literal: String = json.serialized().replacing("<", with: "\\u003c")
}
