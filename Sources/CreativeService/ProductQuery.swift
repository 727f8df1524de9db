import CreativeCore

/// The query parameters of product-dependent routes, read as the CLI reads `--product`,
/// `--device` and `--orientation`.
extension Query {
    /// `product=banner|interstitial|companion`, default ``Product/defaultProduct``.
    func product() throws(ServiceError) -> Product {
        try choice("product", Product.self) ?? .defaultProduct
    }

    /// `device=NAME` (a device of the table) and `orientation=portrait|landscape` (default
    /// portrait): a full-screen slot; nil when neither is given.
    func fullScreenSlot() throws(ServiceError) -> DeviceSlot? {
        guard value("device") != nil || value("orientation") != nil else { return nil }
        guard let device = try device() else { throw .badRequest("device=NAME is required with orientation") }
        return DeviceSlot.fullScreen(device, try choice("orientation", Orientation.self) ?? .portrait)
    }

    /// `device=NAME`: a device of the table; nil when not given.
    func device() throws(ServiceError) -> Device? {
        guard let name = value("device") else { return nil }
        guard let device = Devices.named(name) else {
            throw .badRequest("device '\(TextFormat.clipped(name))' is not in the device table; one of: "
                              + Devices.all.map(\.name).joined(separator: ", "))
        }
        return device
    }
}
