/// One device screen in one orientation, with the banner slot it gets.
public struct DeviceSlot: Sendable, Hashable {
    public let device: Device
    public let orientation: Orientation
    /// The slot in points at the device's scale.
    public let slot: Slot
    /// Anchored (strip) or inline (up to the inline max height).
    public let sizing: Sizing

    /// How the banner is laid out in the app.
    public enum Sizing: String, Sendable {
        case anchored
        case inline
    }

    /// A stable short name: `iphone-14-portrait-390x60@3x`.
    public var identifier: String {
        let name = device.name.lowercased().map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined()
        let scale = TextFormat.scale(slot.scale)
        return "\(name)-\(orientation.rawValue)-\(sizing == .inline ? "inline-" : "")\(slot.points)@\(scale)x"
    }
}

/// Which artwork a device slot shows, and how it sits in the slot.
public struct SlotAssignment: Sendable, Hashable {
    public let deviceSlot: DeviceSlot
    /// The artwork size picked by the selection rule.
    public let artwork: PixelSize
    /// Where the artwork lands in the slot's pixels. For inline slots the canvas is the fitted ad itself.
    public let placement: Placement
}

extension SlotAssignment {
    /// The fields every JSON listing of a device slot shares (guidance, `process` manifests).
    public var jsonFields: [(String, JSONValue)] {
        [
            ("device", .string(deviceSlot.device.name)),
            ("orientation", .string(deviceSlot.orientation.rawValue)),
            ("sizing", .string(deviceSlot.sizing.rawValue)),
            ("slot_points", .string(deviceSlot.slot.points.description)),
            ("scale", .double(deviceSlot.slot.scale)),
            ("slot_pixels", .string(placement.canvas.description)),
            ("content_pixels", .string(placement.content.description)),
            ("content_x", .int(placement.x)),
            ("content_y", .int(placement.y)),
            ("fill_share", .double(placement.fillShare)),
        ]
    }
}

/// The device table crossed with the sizing and selection rules: one source for guidance,
/// `process`, the preview sheet and the service, so they cannot disagree.
public enum DevicePlan {
    /// Every device of the table, portrait then landscape, with its anchored slot (own rule,
    /// screen-height cap applied).
    public static func anchoredSlots(rule: AnchoredRule = .qartvelo) -> [DeviceSlot] {
        Devices.all.flatMap { device in
            Orientation.allCases.map { orientation in
                let screen = device.screen(orientation)
                let slot = SlotMath.anchoredSlot(width: screen.width, screenHeight: screen.height,
                                                 rule: rule, scale: device.scale)
                return DeviceSlot(device: device, orientation: orientation, slot: slot, sizing: .anchored)
            }
        }
    }

    /// Every device, portrait then landscape, with an inline slot of the full width and the max height.
    public static func inlineSlots(maxHeight: Int = SlotMath.defaultInlineMaxHeight) -> [DeviceSlot] {
        let height = SlotMath.inlineMaxHeight(maxHeight)
        return Devices.all.flatMap { device in
            Orientation.allCases.map { orientation in
                DeviceSlot(device: device, orientation: orientation,
                           slot: Slot(points: PixelSize(width: device.screen(orientation).width, height: height),
                                      scale: device.scale),
                           sizing: .inline)
            }
        }
    }

    /// The candidate the ad server serves in a device slot: the adaptive rule for anchored
    /// slots, the inline rule for inline ones; nil when none is eligible.
    public static func pick(_ candidates: [PixelSize], for deviceSlot: DeviceSlot) -> PixelSize? {
        let pixels = deviceSlot.slot.pixels
        let mode: SelectionMode = deviceSlot.sizing == .inline ? .inline : .adaptive
        guard let result = try? Selection.select(candidates, mode: mode, width: pixels.width, height: pixels.height)
        else { return nil }
        return candidates[result.winner]
    }

    /// For each anchored device slot, the candidate the adaptive rule picks (strips only).
    /// Slots for which no candidate is eligible are left out.
    public static func anchoredAssignments(candidates: [PixelSize], rule: AnchoredRule = .qartvelo) -> [SlotAssignment] {
        anchoredSlots(rule: rule).compactMap { deviceSlot in
            guard let artwork = pick(candidates, for: deviceSlot) else { return nil }
            return SlotAssignment(deviceSlot: deviceSlot, artwork: artwork,
                                  placement: Placement(source: artwork, canvas: deviceSlot.slot.pixels))
        }
    }

    /// For each inline device slot, the candidate the inline rule picks; the canvas is the ad's
    /// fitted size (the view is exactly that tall), so the placement fills it.
    public static func inlineAssignments(candidates: [PixelSize],
                                         maxHeight: Int = SlotMath.defaultInlineMaxHeight) -> [SlotAssignment] {
        inlineSlots(maxHeight: maxHeight).compactMap { deviceSlot in
            let box = deviceSlot.slot.pixels
            guard let artwork = pick(candidates, for: deviceSlot) else { return nil }
            let fitted = SlotMath.fit(artwork, into: box)
            let slot = DeviceSlot(device: deviceSlot.device, orientation: deviceSlot.orientation,
                                  slot: Slot(points: PixelSize(width: deviceSlot.slot.points.width,
                                                               height: max(1, Int((Double(fitted.height) / deviceSlot.slot.scale).rounded()))),
                                             scale: deviceSlot.slot.scale),
                                  sizing: .inline)
            return SlotAssignment(deviceSlot: slot, artwork: artwork,
                                  placement: Placement(source: artwork, canvas: PixelSize(width: box.width, height: fitted.height)))
        }
    }

    /// The candidates a creative competes with in `process` and guidance: the Retina sizes
    /// guidance recommends, with the creative standing in for its own size or added to them.
    public static func competingSizes(with creative: PixelSize) -> [PixelSize] {
        var sizes = Catalog.adaptiveSizes
        if !sizes.contains(creative) { sizes.append(creative) }
        return sizes
    }

    /// The slots a creative of this size is picked for: anchored ones for a strip, inline ones for a rectangle.
    public static func assignments(for creative: PixelSize) -> [SlotAssignment] {
        let candidates = competingSizes(with: creative)
        let plan = creative.shape == .strip ? anchoredAssignments(candidates: candidates)
                                            : inlineAssignments(candidates: candidates)
        return plan.filter { $0.artwork == creative }
    }
}
