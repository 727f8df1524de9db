import CreativeCore

/// The prompts of a guidance or prompt request, from the template embedded in the binary.
extension GuidanceRequest {
    /// The html page's prompts (none for json and markdown).
    /// - Throws: ``CoreError/templateError(_:)`` (a bug of the embedded template, caught by tests).
    public func prompts() throws(CoreError) -> [RenderedPrompt] {
        guard format == .html, profile?.isDefault ?? true else { return [] }
        return try BannerPrompts.guidance(product: product, brand: texts.brand, headline: texts.headline,
                                          cta: texts.cta, colors: texts.colors)
    }
}

extension PromptRequest {
    /// One prompt for the size given, or one per recommended size.
    /// - Throws: ``CoreError/templateError(_:)`` for the template, ``CoreError`` for a size the product does not accept.
    public func prompts() throws(CoreError) -> [RenderedPrompt] {
        try BannerPrompts.render(size: size, brand: texts.brand, headline: texts.headline, cta: texts.cta,
                                 colors: texts.colors, product: product)
    }
}
