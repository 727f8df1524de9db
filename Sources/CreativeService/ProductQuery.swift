import CreativeCore

/// The query parameters of product-dependent routes, read as the CLI reads `--product`.
extension Query {
    /// `product=banner|interstitial|companion`, default ``Product/defaultProduct``.
    func product() throws(ServiceError) -> Product {
        try ServiceError.reading { () throws(CoreError) in try CommonOptions.product(self) }
    }
}
