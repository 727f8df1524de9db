import CreativeCore
import Foundation
import XCTest

/// The output formats are one table (``OutputFormat/entry`` here, its writers in CreativeImaging's
/// FormatWriters.swift): every list of them the tool prints or reads is the table's, and no
/// source file outside the table writes one of its own.
final class OutputFormatTableTests: XCTestCase {
    func testEveryFormatHasItsOwnNamesEndingsAndMediaType() {
        let endings = OutputFormat.allCases.flatMap(\.endings)
        XCTAssertEqual(Set(endings).count, endings.count, "an ending names one format: \(endings)")
        XCTAssertEqual(Set(OutputFormat.allCases.map(\.mediaType)).count, OutputFormat.allCases.count)
        for format in OutputFormat.allCases {
            XCTAssertEqual(format.endings.first, format.fileExtension)
            XCTAssertTrue(format.mediaType.hasPrefix("image/"), format.mediaType)
            for name in [format.rawValue] + format.entry.aliases {
                XCTAssertEqual(OutputFormat(name: name.uppercased()), format, name)
            }
            for ending in format.endings {
                XCTAssertEqual(OutputFormat(fileName: "out/banner." + ending.uppercased()), format, ending)
            }
            XCTAssertEqual(FormatChoice(rawValue: format.rawValue), .fixed(format))
            XCTAssertEqual(FormatChoice.fixed(format).rawValue, format.rawValue)
            XCTAssertEqual(FormatChoice.fixed(format).supportsAlpha, format.entry.keepsAlpha)
            XCTAssertEqual(FormatChoice.fixed(format).takesQuality, !format.entry.lossless)
            XCTAssertEqual(FormatChoice.fixed(format).maxSide, format.entry.maxSide)
        }
        XCTAssertEqual(FormatChoice.allCases, OutputFormat.allCases.map(FormatChoice.fixed) + [.auto])
        XCTAssertEqual(FormatChoice(rawValue: "auto"), .auto)
        XCTAssertNil(FormatChoice(rawValue: "jpg"), "an alias is not a choice's name: --format answers it with the name")
        XCTAssertEqual(OutputFormat.autoDefault, [.png, .jpeg, .webp])
    }

    func testTheOptionsListTheTablesFormats() throws {
        let names = OutputFormat.allCases.map(\.rawValue)
        guard case .choice(let choices) = RenderRequest.format.kind else { return XCTFail("format is a choice") }
        XCTAssertEqual(choices, names + ["auto"])
        XCTAssertEqual(ProcessRequest.format.kind, RenderRequest.format.kind)
        XCTAssertEqual(RenderRequest.format.mistakenValues.count,
                       OutputFormat.allCases.map { $0.entry.aliases.count + $0.entry.misspellings.count }.reduce(0, +))
        for format in OutputFormat.allCases {
            for name in format.entry.aliases + format.entry.misspellings {
                XCTAssertEqual(RenderRequest.format.mistakenValues[name], format.rawValue, name)
            }
            XCTAssertTrue(RenderRequest.format.help.contains(format.helpName), format.helpName)
            XCTAssertTrue(ProcessRequest.format.help.contains(format.helpName), format.helpName)
        }
        XCTAssertTrue(RenderRequest.formats.help.contains(
            ": " + OutputFormat.autoChoices.map(\.rawValue).joined(separator: ", ") + " ("), RenderRequest.formats.help)
        XCTAssertEqual(RenderRequest.formats.defaultValue,
                       OutputFormat.allCases.filter(OutputFormat.autoDefault.contains).map(\.rawValue).joined(separator: ","))
        let lossy = OutputFormat.allCases.filter { !$0.entry.lossless }
        XCTAssertEqual(RenderRequest.quality.declaration.help,
                       TextFormat.listed(lossy.map(\.displayName)) + " quality, 1 to 100")
        XCTAssertEqual(RenderRequest.knownExtensions,
                       OutputFormat.allCases.flatMap(\.endings).map { "." + $0 }.joined(separator: ", "))
    }

    /// The contract names the table's formats: the schemas' `render_format` and every `format`
    /// enum of the OpenAPI description (a format added to the table and not to them fails here).
    func testTheContractNamesTheTablesFormats() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let defs = try Data(contentsOf: root.appendingPathComponent("schemas/defs.schema.json"))
        let schema = try JSONSerialization.jsonObject(with: defs) as? [String: Any]
        let renderFormat = ((schema?["$defs"] as? [String: Any])?["render_format"] as? [String: Any])?["enum"] as? [String]
        XCTAssertEqual(renderFormat, OutputFormat.allCases.map(\.rawValue))
        let openAPI = try String(contentsOf: root.appendingPathComponent("openapi.yaml"), encoding: .utf8)
        let choices = "enum: [" + FormatChoice.allCases.map(\.rawValue).joined(separator: ", ") + "]"
        // `fix`'s format (with gif) is the uploads' formats, not the renders'.
        let formatEnums = openAPI.split(separator: "\n").filter { $0.contains("enum: [png") && !$0.contains("gif") }
        XCTAssertFalse(formatEnums.isEmpty)
        for line in formatEnums {
            XCTAssertEqual(line.trimmingCharacters(in: .whitespaces), choices)
        }
    }

    /// Any source file that lists output formats, extensions, aliases or media types in a string
    /// (`"jpg"`, `".png, .jpg"`, `"image/webp"`, `"jpeg, webp or avif"`) outside the table would be
    /// one more place to edit for a new format: there is none.
    func testNoSourceFileListsOutputFormatsOutsideTheTable() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        var found: [String] = []
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        XCTAssertGreaterThan(files.count, 100, sources.path)
        for file in files {
            let path = file.path.replacingOccurrences(of: sources.path + "/", with: "")
            guard !Self.exempt.keys.contains(where: { path.hasPrefix($0) }) else { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                guard !line.drop(while: { $0 == " " }).hasPrefix("//") else { continue }
                for literal in Self.stringLiterals(String(line)) where Self.listsFormats(literal) {
                    found.append("\(path):\(index + 1): \"\(literal)\"")
                }
            }
        }
        XCTAssertEqual(found, [], "read these from OutputFormat's table instead")
    }

    /// Files whose strings name formats that are not the render's output formats.
    private static let exempt: [String: String] = [
        "CreativeCore/Requests/OutputFormat.swift": "the table",
        "CreativeImaging/FormatWriters.swift": "the table's writers",
        "CreativeCore/Validation/ImageFormat.swift": "the uploads' formats (GIF too), not the renders'",
        "CreativeBundle/": "an HTML5 bundle's file types",
        "CreativeCore/Requests/FixRequest.swift": "fix writes the upload's formats (ImageFormat)",
        "CreativeCLI/FixCommand.swift": "fix writes the upload's formats (ImageFormat)",
        "CreativeImaging/FixRefusal.swift": "fix writes the upload's formats (ImageFormat)",
        "CreativeCLI/ProcessCampaign.swift": "the endings of files a campaign folder passes over",
        "CreativeService/TryItPage.swift": "the upload picker's accepted files",
    ]

    /// Whether a string lists output formats: a name, alias or ending alone, a media type, or
    /// two names or endings in a row (`png, jpeg`, `.png or .webp`, `JPEG and WebP`). A list with
    /// GIF is the uploads' (ImageFormat's); `palette PNG and WebP` names `auto`'s candidates.
    static func listsFormats(_ literal: String) -> Bool {
        let lowered = literal.lowercased()
        guard !lowered.contains("gif"), !literal.contains("palette PNG and WebP") else { return false }
        let name = "\\.?(png|jpe?g|jpe|webp|avif)"
        // A name, alias or ending alone, or a media type, as the code writes them (lower case);
        // a list in any case (`JPEG, WebP or AVIF`).
        return literal.range(of: "^\(name)$|image/(png|jpeg|webp|avif)\\b", options: .regularExpression) != nil
            || lowered.range(of: "\\b\(name),? (or |and )?\(name)\\b", options: .regularExpression) != nil
    }

    /// The string literals of a line of Swift (the text between unescaped quotes, interpolations
    /// left in).
    static func stringLiterals(_ line: String) -> [String] {
        var literals: [String] = []
        var current: String?
        var escaped = false
        for character in line {
            if var open = current {
                if escaped {
                    escaped = false
                    open.append(character)
                } else if character == "\\" {
                    escaped = true
                    open.append(character)
                } else if character == "\"" {
                    literals.append(open)
                    current = nil
                    continue
                } else {
                    open.append(character)
                }
                current = open
            } else if character == "\"" {
                current = ""
            }
        }
        return literals
    }

    func testTheScanFindsTheListsItLooksFor() {
        for listed in ["jpg", ".webp", "image/avif", "png, jpeg, webp, avif", "jpeg, webp or avif", ".png or .webp",
                       "JPEG, WebP or AVIF quality", "(.png, .jpg, .jpeg, .webp, .avif)"] {
            XCTAssertTrue(Self.listsFormats(listed), listed)
        }
        for free in ["o.webp[lossless]", "WEBP", "PNG", "WebP effort, 0 (fastest) to 6", "PNG, JPEG, GIF or WebP", "banner.png",
                     "the smallest of PNG, palette PNG and WebP"] {
            XCTAssertFalse(Self.listsFormats(free), free)
        }
        XCTAssertEqual(Self.stringLiterals(#"a("x \"y\" z", "png")"#), [#"x \"y\" z"#, "png"])
    }
}
