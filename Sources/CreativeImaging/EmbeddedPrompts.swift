import CArtwork
import CreativeCore

/// The AI banner prompts with the template embedded in the binary (`Prompts/banner.txt`,
/// through `#embed` in CArtwork), so the tool needs no source tree at run time.
/// The CLI's `prompt` command and the HTTP service both call ``render(size:brand:headline:cta:colors:)``.
public enum BannerPrompts {
    /// The text of `Prompts/banner.txt` as built into this binary.
    public static let template: String = {
        var length = 0
        guard let bytes = creative_prompt_banner(&length) else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
    }()

    /// The filled-in prompt for one accepted size, or for each Retina size when `size` is nil.
    /// Brand, headline, call to action and colours are inserted verbatim; nil or blank means
    /// not given, and the prompt is worded without them (no headline and no call to action:
    /// the artwork is asked to hold no text at all).
    /// - Throws: ``CoreError/sizeNotAllowed(_:product:)`` for a size outside the product's sizes (a caller
    ///   mistake); ``CoreError/templateError(_:)`` only if the embedded template is broken (a bug).
    public static func render(size: PixelSize?, brand: String? = nil, headline: String? = nil,
                              cta: String? = nil, colors: String? = nil,
                              product: Product) throws(CoreError) -> [RenderedPrompt] {
        try BannerPrompt.render(template: template, size: size, brand: brand, headline: headline,
                                cta: cta, colors: colors, product: product)
    }

    /// The prompts of the guidance page: one per accepted size of the product, in catalog order,
    /// with brand, headline, call to action and colours filled in where given and visible
    /// placeholders (``BannerPrompt/placeholders``) where not.
    /// - Throws: ``CoreError/templateError(_:)`` only if the embedded template is broken (a bug).
    public static func guidance(product: Product, brand: String? = nil, headline: String? = nil,
                                cta: String? = nil, colors: String? = nil) throws(CoreError) -> [RenderedPrompt] {
        var prompts: [RenderedPrompt] = []
        for entry in product.entries {
            prompts += try BannerPrompt.render(template: template, size: entry.size, brand: brand, headline: headline,
                                               cta: cta, colors: colors, product: product, placeholders: true)
        }
        return prompts
    }
}
