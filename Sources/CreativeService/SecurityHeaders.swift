/// The Content-Security-Policy of the HTML pages (`/`, `/v1/guidance?format=html`): each allows
/// exactly what it uses, its own inline script and style sheet by hash, the guidance page's
/// style attributes by hash (`'unsafe-hashes'`), and nothing else (`default-src 'none'`): no
/// outside request, no plug-in, no frame, no form sent anywhere, no `<base>`, and no page may
/// frame them. The other answers (JSON, images, text) carry none: they are never rendered as
/// pages (`X-Content-Type-Options: nosniff`), and a policy on them would bind the documents that
/// embed a fetched guidance page (an `iframe srcdoc` inherits its parent's policy).
enum SecurityHeaders {
    /// The header name.
    static let name = "Content-Security-Policy"

    /// The policy for a self-contained page: its inline scripts and style sheets and the
    /// values of its `style` attributes, each allowed by its SHA-256, and nothing more.
    static func pagePolicy(for html: String) -> String {
        let sources = inlineSources(of: html)
        var directives = ["default-src 'none'"]
        if !sources.scripts.isEmpty {
            directives.append("script-src " + unique(sources.scripts.map(TryItPage.cspHash)).joined(separator: " "))
        }
        var styles = unique(sources.styles.map(TryItPage.cspHash))
        if !sources.styleAttributes.isEmpty {
            styles += ["'unsafe-hashes'"] + unique(sources.styleAttributes.map(TryItPage.cspHash))
        }
        if !styles.isEmpty { directives.append("style-src " + styles.joined(separator: " ")) }
        directives += ["base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'"]
        return directives.joined(separator: "; ")
    }

    /// The contents of a page's `<script>` and `<style>` elements and its `style="..."`
    /// attribute values. The pages escape every piece of text they insert (`<`, `>`, quotes),
    /// so each `<` outside a script or style element opens a real tag.
    static func inlineSources(of html: String) -> (scripts: [String], styles: [String], styleAttributes: [String]) {
        var scripts: [String] = []
        var styles: [String] = []
        var attributes: [String] = []
        var rest = html[...]
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            let tag = rest[open...close]
            let after = rest[rest.index(after: close)...]
            let lower = tag.lowercased()
            if lower.hasPrefix("<script") || lower.hasPrefix("<style") {
                let isScript = lower.hasPrefix("<script")
                guard let end = after.firstRange(of: isScript ? "</script>" : "</style>") else { break }
                let content = String(after[..<end.lowerBound])
                if isScript { scripts.append(content) } else { styles.append(content) }
                rest = after[end.upperBound...]
                continue
            }
            if let attribute = tag.firstRange(of: " style=\""),
               let quote = tag[attribute.upperBound...].firstIndex(of: "\"") {
                attributes.append(String(tag[attribute.upperBound..<quote]))
            }
            rest = after
        }
        return (scripts, styles, attributes)
    }

    private static func unique(_ values: [String]) -> [String] {
        var seen: Set<String> = []
        return values.filter { seen.insert($0).inserted }
    }
}
