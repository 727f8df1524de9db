/// One device screen in one orientation, with the slot a product gets on it.
public struct DeviceSlot: Sendable, Hashable {
    public let device: Device
    public let orientation: Orientation
    /// The slot in points at the device's scale: a banner's slot, or an interstitial's safe area.
    public let slot: Slot
    /// Anchored (strip), inline (up to the inline max height) or full screen.
    public let sizing: Sizing

    /// How the ad is laid out in the app.
    public enum Sizing: String, Sendable {
        case anchored
        case inline
        /// The whole screen; the artwork sits in the safe area (``slot``).
        case fullScreen = "full_screen"
        /// A fixed standard slot of the device's class (companions), the same in both
        /// orientations: stored as portrait, named `any`.
        case standard

        /// The name in JSON, the one vocabulary of slot modes `slot`, `select` and every device
        /// listing share: `anchored`, `inline`, `full_screen`, `standard_slot`.
        public var slotMode: String { self == .standard ? SelectionMode.standardSlot.rawValue : rawValue }
    }

    public init(device: Device, orientation: Orientation, slot: Slot, sizing: Sizing) {
        self.device = device
        self.orientation = orientation
        self.slot = slot
        self.sizing = sizing
    }

    /// The full-screen slot of a device in an orientation: the screen minus its safe-area insets.
    public static func fullScreen(_ device: Device, _ orientation: Orientation) -> DeviceSlot {
        let screen = device.screen(orientation)
        let insets = device.insets(orientation)
        return DeviceSlot(device: device, orientation: orientation,
                          slot: Slot(points: PixelSize(width: screen.width - insets.left - insets.right,
                                                       height: screen.height - insets.top - insets.bottom),
                                     scale: device.scale),
                          sizing: .fullScreen)
    }

    /// The anchored banner slot of a device in an orientation: the screen's width, the height of
    /// the rule capped by the screen's height, at the device's scale.
    public static func anchored(_ device: Device, _ orientation: Orientation, rule: AnchoredRule = .qartvelo) -> DeviceSlot {
        let screen = device.screen(orientation)
        let slot = SlotMath.anchoredSlot(width: screen.width, screenHeight: screen.height, rule: rule, scale: device.scale)
        return DeviceSlot(device: device, orientation: orientation, slot: slot, sizing: .anchored)
    }

    /// The fixed standard slot of a product (``Product/standardSlotPoints``) on a device, at its
    /// scale; nil when the product has none for the device's class.
    public static func standard(_ device: Device, product: Product) -> DeviceSlot? {
        guard let points = product.standardSlotPoints[device.deviceClass] else { return nil }
        return DeviceSlot(device: device, orientation: .portrait, slot: Slot(points: points, scale: device.scale),
                          sizing: .standard)
    }

    /// `portrait`, `landscape`, or `any` for a standard slot (the same in both orientations).
    public var orientationName: String { sizing == .standard ? "any" : orientation.rawValue }

    /// The screen in points for this orientation.
    public var screenPoints: PixelSize {
        let screen = device.screen(orientation)
        return PixelSize(width: screen.width, height: screen.height)
    }

    /// The screen in pixels: the canvas of a full-screen render.
    public var screenPixels: PixelSize { Slot(points: screenPoints, scale: slot.scale).pixels }

    /// The screen at another scale (a preview's), each side rounded.
    public func screen(atScale scale: Double) -> PixelSize { Slot(points: screenPoints, scale: scale).pixels }

    /// The safe-area insets for this orientation (zero for banner slots, which sit inside the app's layout).
    public var insets: Insets { sizing == .fullScreen ? device.insets(orientation) : .zero }

    /// The safe area as a rectangle of the screen's pixels: each edge is its point position x scale, rounded.
    public var safeAreaPixels: PixelRect { safeArea(atScale: slot.scale) }

    /// The safe area at a scale (the device's, or a preview's): each edge rounded.
    public func safeArea(atScale scale: Double) -> PixelRect {
        let screen = screenPoints, insets = self.insets
        return PixelRect(edgesInPoints: (insets.left, insets.top, screen.width - insets.right, screen.height - insets.bottom),
                         scale: scale)
    }

    /// A stable short name: `iphone-14-portrait-390x60@3x`; full screen:
    /// `iphone-15-portrait-fullscreen-393x852@3x` (the screen in points); standard slot:
    /// `iphone-15-standard-320x50@3x`.
    public var identifier: String {
        let name = device.name.lowercased().map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined()
        let scale = TextFormat.scale(slot.scale)
        if sizing == .fullScreen { return "\(name)-\(orientation.rawValue)-fullscreen-\(screenPoints)@\(scale)x" }
        if sizing == .standard { return "\(name)-standard-\(slot.points)@\(scale)x" }
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
            ("orientation", .string(deviceSlot.orientationName)),
            ("slot_mode", .string(deviceSlot.sizing.slotMode)),
            // The slot is the canvas: for full-screen slots the whole screen, in points and pixels.
            ("slot_points", (deviceSlot.sizing == .fullScreen ? deviceSlot.screenPoints : deviceSlot.slot.points).json),
            ("scale", .double(deviceSlot.slot.scale)),
            ("slot_pixels", placement.canvas.json),
            ("content_pixels", placement.content.json),
            ("content_position_pixels", JSONContract.position(x: placement.x, y: placement.y)),
            ("fill_share", .double(placement.fillShare)),
        ] + fullScreenFields
    }

    /// For full-screen slots: the insets and the safe area the artwork is fitted in, in points
    /// (its size) and pixels (where it is on the screen).
    private var fullScreenFields: [(String, JSONValue)] {
        guard deviceSlot.sizing == .fullScreen else { return [] }
        return [
            ("insets_points", deviceSlot.insets.json),
            ("safe_area_points", deviceSlot.slot.points.json),
            ("safe_area_pixels", deviceSlot.safeAreaPixels.json),
        ]
    }
}

/// The device table crossed with the sizing and selection rules: one source for guidance,
/// `process`, the preview sheet and the service, so they cannot disagree.
public enum DevicePlan {
    /// Every device of the table, portrait then landscape, with its anchored slot (own rule,
    /// screen-height cap applied).
    public static func anchoredSlots(rule: AnchoredRule = .qartvelo) -> [DeviceSlot] {
        Devices.all.flatMap { device in Orientation.allCases.map { DeviceSlot.anchored(device, $0, rule: rule) } }
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
    public static func pick(_ candidates: [PixelSize], for deviceSlot: DeviceSlot,
                            product: Product) -> PixelSize? {
        let pixels = deviceSlot.sizing == .fullScreen ? deviceSlot.safeAreaPixels.size : deviceSlot.slot.pixels
        let mode: SelectionMode = switch deviceSlot.sizing {
        case .anchored: .anchored
        case .inline: .inline
        case .fullScreen: .fullScreen
        case .standard: .standardSlot
        }
        guard let result = try? Selection.select(candidates, mode: mode, width: pixels.width, height: pixels.height,
                                                 product: product)
        else { return nil }
        return candidates[result.winner]
    }

    /// Every device of the table, portrait then landscape, with its full-screen slot.
    public static func fullScreenSlots() -> [DeviceSlot] {
        Devices.all.flatMap { device in Orientation.allCases.map { DeviceSlot.fullScreen(device, $0) } }
    }

    /// The placement of artwork in a full-screen slot: the whole screen is the canvas, the
    /// artwork is fitted and centred in the safe area.
    public static func fullScreenPlacement(_ artwork: PixelSize, in deviceSlot: DeviceSlot,
                                           enlarge: Bool = true) -> Placement {
        Placement(source: artwork, canvas: deviceSlot.screenPixels, area: deviceSlot.safeAreaPixels, enlarge: enlarge)
    }

    /// For each full-screen device slot, the candidate the full-screen rule picks.
    public static func fullScreenAssignments(candidates: [PixelSize], product: Product) -> [SlotAssignment] {
        fullScreenSlots().compactMap { deviceSlot in
            guard let artwork = pick(candidates, for: deviceSlot, product: product) else { return nil }
            return SlotAssignment(deviceSlot: deviceSlot, artwork: artwork,
                                  placement: fullScreenPlacement(artwork, in: deviceSlot))
        }
    }

    /// Every device of the table with the product's fixed standard slot (one per device: the slot
    /// is the same in both orientations).
    public static func standardSlots(product: Product) -> [DeviceSlot] {
        Devices.all.compactMap { DeviceSlot.standard($0, product: product) }
    }

    /// For each standard slot, the candidate the product's rule picks, aspect fit into the slot.
    public static func standardAssignments(candidates: [PixelSize], product: Product) -> [SlotAssignment] {
        standardSlots(product: product).compactMap { deviceSlot in
            guard let artwork = pick(candidates, for: deviceSlot, product: product) else { return nil }
            return SlotAssignment(deviceSlot: deviceSlot, artwork: artwork,
                                  placement: Placement(source: artwork, canvas: deviceSlot.slot.pixels))
        }
    }

    /// For each anchored device slot, the candidate the adaptive rule picks (strips only; ties in
    /// the product's catalog order). Slots for which no candidate is eligible are left out.
    public static func anchoredAssignments(candidates: [PixelSize], rule: AnchoredRule = .qartvelo,
                                           product: Product) -> [SlotAssignment] {
        anchoredSlots(rule: rule).compactMap { deviceSlot in
            guard let artwork = pick(candidates, for: deviceSlot, product: product) else { return nil }
            return SlotAssignment(deviceSlot: deviceSlot, artwork: artwork,
                                  placement: Placement(source: artwork, canvas: deviceSlot.slot.pixels))
        }
    }

    /// For each inline device slot, the candidate the inline rule picks; the canvas is the ad's
    /// fitted size (the view is exactly that tall), so the placement fills it. Ties in the
    /// product's catalog order.
    public static func inlineAssignments(candidates: [PixelSize], maxHeight: Int = SlotMath.defaultInlineMaxHeight,
                                         product: Product) -> [SlotAssignment] {
        inlineSlots(maxHeight: maxHeight).compactMap { deviceSlot in
            let box = deviceSlot.slot.pixels
            guard let artwork = pick(candidates, for: deviceSlot, product: product) else { return nil }
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

    /// The set guidance assumes a creative competes with: the product's recommended uploads, with
    /// the creative standing in for its own size or added to them. A companion competes with
    /// nothing (the one creative trafficked with a video). `process` never assumes it: its
    /// campaign is what was uploaded (``campaign(_:with:)``).
    public static func recommendedCampaign(with creative: PixelSize, product: Product) -> [PixelSize] {
        if product.hasStandardSlot { return [creative] }
        return campaign(creative, with: product.recommendedUploads)
    }

    /// A campaign's candidates: `creative`, then each of `others` not already in, in order. The
    /// ad server chooses among a campaign's approved creatives only, so a creative uploaded
    /// alone (`others` empty) is served in every slot it is eligible for.
    public static func campaign(_ creative: PixelSize, with others: [PixelSize]) -> [PixelSize] {
        var sizes = [creative]
        for size in others where !sizes.contains(size) { sizes.append(size) }
        return sizes
    }

    /// Every device slot a campaign of these sizes is served in, with the size served there:
    /// for banners the anchored slots when the campaign holds a strip and the inline slots when
    /// it holds a rectangle (the inline rule choosing among every size); for interstitials every
    /// full-screen slot; for companions every standard slot.
    public static func campaignPlan(_ sizes: [PixelSize], product: Product) -> [SlotAssignment] {
        guard !sizes.isEmpty else { return [] }
        switch product.slotRule {
        case .anchoredOrInlineStrip:
            let anchored = sizes.contains { $0.shape == .strip } ? anchoredAssignments(candidates: sizes, product: product) : []
            let inline = sizes.contains { $0.shape == .rectangle } ? inlineAssignments(candidates: sizes, product: product) : []
            return anchored + inline
        case .fullScreenSafeArea:
            return fullScreenAssignments(candidates: sizes, product: product)
        case .fixedStandardSlot:
            return standardAssignments(candidates: sizes, product: product)
        }
    }

    /// Every slot of a product on the device table that a creative of this size could be
    /// shown in: anchored ones for a banner strip, inline ones for a banner rectangle, full-screen
    /// ones for an interstitial, the standard slot of each device for a companion.
    public static func slots(for creative: PixelSize, product: Product) -> [DeviceSlot] {
        switch product.slotRule {
        case .anchoredOrInlineStrip: creative.shape == .strip ? anchoredSlots() : inlineSlots()
        case .fullScreenSafeArea: fullScreenSlots()
        case .fixedStandardSlot: standardSlots(product: product)
        }
    }

    /// Every slot of a product a creative of this size could be shown in (``slots(for:product:)``),
    /// plus any other slot the campaign serves it in, with what the campaign (`campaign`: every
    /// size of it, the creative's included; ``campaign(_:with:)``) puts there.
    public static func plan(with creative: PixelSize, campaign: [PixelSize], product: Product) -> [SlotAssignment] {
        let sizing = slots(for: creative, product: product).first?.sizing
        return campaignPlan(self.campaign(creative, with: campaign), product: product)
            .filter { $0.deviceSlot.sizing == sizing || $0.artwork == creative }
    }

    /// The slots a creative of this size is served in among the campaign's sizes (``plan(with:campaign:product:)``).
    public static func assignments(for creative: PixelSize, campaign: [PixelSize], product: Product) -> [SlotAssignment] {
        plan(with: creative, campaign: campaign, product: product).filter { $0.artwork == creative }
    }
}
