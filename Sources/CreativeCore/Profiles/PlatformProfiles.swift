import CProfileData

/// The platform profiles built into this binary (`Profiles/*.json` through `#embed` in
/// CProfileData), read strictly once: an unknown field, a missing source or date, a duplicate
/// rule or a malformed size is a broken build, which `PlatformProfileDataTests` catches.
public enum PlatformProfiles {
    /// Every profile, in the order `profiles` lists them (``PlatformProfile/defaultName`` first).
    public static let all: [PlatformProfile] = {
        switch load() {
        case .success(let profiles): return profiles
        case .failure(let error): preconditionFailure(error.description)
        }
    }()

    /// The names of every profile, in order: the embedded files' names, which ``load()`` holds
    /// to their profiles' (read without parsing any file: every command declares `--profile`
    /// with them).
    public static let names: [String] = (0..<creative_profile_count()).compactMap { index in
        var name: UnsafePointer<CChar>?
        var length = 0
        guard creative_profile_file(index, &name, &length) != nil, let name else { return nil }
        let file = String(cString: name)
        return file.hasSuffix(".json") ? String(file.dropLast(5)) : file
    }

    /// The network's own profile, the default.
    public static var network: PlatformProfile {
        guard let profile = named(PlatformProfile.defaultName) else {
            preconditionFailure("no \(PlatformProfile.defaultName) profile is embedded")
        }
        return profile
    }

    /// The profile of a name (exact, lower case), or nil. The default profile alone is read
    /// without the others (a validation that names no profile parses one file, not all).
    public static func named(_ name: String) -> PlatformProfile? {
        name == PlatformProfile.defaultName ? defaultProfile : all.first { $0.name == name }
    }

    /// The default profile, read alone from its file (the first, as ``load()`` requires).
    private static let defaultProfile: PlatformProfile? = {
        var fileName: UnsafePointer<CChar>?
        var length = 0
        guard creative_profile_count() > 0, let bytes = creative_profile_file(0, &fileName, &length),
              let fileName, String(cString: fileName) == PlatformProfile.defaultName + ".json" else {
            return all.first { $0.name == PlatformProfile.defaultName }
        }
        do throws(CoreError) {
            let profile = try ProfileFile.read(Array(UnsafeBufferPointer(start: bytes, count: length)))
            return profile.name == PlatformProfile.defaultName ? profile : all.first { $0.name == PlatformProfile.defaultName }
        } catch {
            // A file that does not read is a broken build: the whole set says why.
            return all.first { $0.name == PlatformProfile.defaultName }
        }
    }()

    /// Reads every embedded file; the first that does not read strictly fails the whole set.
    public static func load() -> Result<[PlatformProfile], CoreError> {
        var profiles: [PlatformProfile] = []
        for index in 0..<creative_profile_count() {
            var name: UnsafePointer<CChar>?
            var length = 0
            guard let bytes = creative_profile_file(Int32(index), &name, &length), let name else {
                return .failure(.profileData("embedded profile \(index) is missing"))
            }
            let fileName = String(cString: name)
            do throws(CoreError) {
                let profile = try ProfileFile.read(Array(UnsafeBufferPointer(start: bytes, count: length)))
                guard fileName == profile.name + ".json" else {
                    throw .profileData("its name is '\(profile.name)'")
                }
                guard !profiles.contains(where: { $0.name == profile.name }) else {
                    throw .profileData("a second profile named '\(profile.name)'")
                }
                profiles.append(profile)
            } catch {
                return .failure(.profileData("Profiles/\(fileName): \(error.description)"))
            }
        }
        guard profiles.first?.name == PlatformProfile.defaultName else {
            return .failure(.profileData("the first profile must be \(PlatformProfile.defaultName)"))
        }
        return .success(profiles)
    }
}

/// The strict reading of one profile file (docs/profiles.md, "The data files").
enum ProfileFile {
    /// Profile names: lower case letters, digits and `-`.
    static let nameCharacters = Set("abcdefghijklmnopqrstuvwxyz0123456789-")

    static func read(_ bytes: [UInt8]) throws(CoreError) -> PlatformProfile {
        let document: JSONValue
        do { document = try JSONParser.parse(bytes, maxDepth: 8, maxValues: 4096) } catch {
            throw .profileData(error.message)
        }
        var top = try Fields(document, what: "the profile", allowed: ["name", "title", "rules"])
        let name = try top.string("name")
        guard !name.isEmpty, name.allSatisfy(nameCharacters.contains) else {
            throw .profileData("name '\(name)' is not lower case letters, digits and '-'")
        }
        let title = try top.string("title")
        guard case .array(let ruleValues)? = top.take("rules"), !ruleValues.isEmpty else {
            throw .profileData("rules must be a list of at least one rule")
        }
        var rules: [ProfileRule] = []
        for value in ruleValues {
            let rule = try readRule(value)
            guard !rules.contains(where: { $0.kind.name == rule.kind.name }) else {
                throw .profileData("a second '\(rule.kind.name)' rule")
            }
            rules.append(rule)
        }
        return PlatformProfile(name: name, title: title, rules: rules)
    }

    /// The fields every rule has, and those of its kind.
    static let ruleFields: [String: Set<String>] = [
        "sizes": ["sizes", "min", "max"], "formats": ["formats"], "max_bytes": ["bytes"],
        "size_bytes": ["weights"], "weight_guideline": ["bytes"], "colour_space": ["refused"],
        "border": ["required"], "animation": ["allowed", "max_seconds", "max_fps", "max_loops"],
    ]

    static func readRule(_ value: JSONValue) throws(CoreError) -> ProfileRule {
        guard case .object(let pairs) = value, case .string(let kindName)? = pairs.first(where: { $0.0 == "rule" })?.1,
              let own = ruleFields[kindName] else {
            throw .profileData("a rule needs \"rule\": one of " + ruleFields.keys.sorted().joined(separator: ", "))
        }
        var fields = try Fields(value, what: "the \(kindName) rule", allowed: own.union(["rule", "source", "read", "note"]))
        _ = fields.take("rule")
        let source = try fields.string("source")
        guard source.hasPrefix("https://") || (source.hasPrefix("docs/") && source.hasSuffix(".md")) else {
            throw .profileData("the \(kindName) rule's source '\(source)' is neither https:// nor a docs/ page")
        }
        let read = try fields.string("read")
        guard isDate(read) else { throw .profileData("the \(kindName) rule's read date '\(read)' is not YYYY-MM or YYYY-MM-DD") }
        let note = try fields.optionalString("note")
        let kind: ProfileRule.Kind
        switch kindName {
        case "sizes":
            let list: [PixelSize]?
            if case .string("product")? = fields.peek("sizes") {
                _ = fields.take("sizes")
                list = nil
            } else {
                list = try fields.strings("sizes").map { (text) throws(CoreError) in try size(text) }
                guard list?.isEmpty == false else { throw .profileData("sizes must not be empty") }
            }
            kind = .sizes(list: list, minimum: try fields.optionalString("min").map(size),
                          maximum: try fields.optionalString("max").map(size))
        case "formats":
            kind = .formats(try fields.strings("formats").map { (text) throws(CoreError) in
                guard let format = ImageFormat(rawValue: text) else { throw .profileData("unknown format '\(text)'") }
                return format
            })
        case "max_bytes":
            if case .null? = fields.peek("bytes") {
                _ = fields.take("bytes")
                guard note != nil else { throw .profileData("a max_bytes rule without bytes needs a note saying why") }
                kind = .maxBytes(nil)
            } else {
                kind = .maxBytes(try fields.bytes("bytes"))
            }
        case "size_bytes":
            guard case .array(let entries)? = fields.take("weights"), !entries.isEmpty else {
                throw .profileData("weights must be a list of {size, bytes}")
            }
            kind = .sizeBytes(try entries.map { (entry) throws(CoreError) in
                var weight = try Fields(entry, what: "a weight", allowed: ["size", "bytes"])
                let result = SizeWeight(size: try size(try weight.string("size")), bytes: try weight.bytes("bytes"))
                try weight.finish()
                return result
            })
        case "weight_guideline":
            kind = .weightGuideline(try fields.bytes("bytes"))
        case "colour_space":
            kind = .colourSpace(refused: try fields.strings("refused").map { (text) throws(CoreError) in
                guard let space = ColourSpace(rawValue: text) else { throw .profileData("unknown colour space '\(text)'") }
                return space
            })
        case "border":
            kind = .border(required: try fields.bool("required"))
        default:
            kind = .animation(AnimationLimits(allowed: try fields.bool("allowed"), maxSeconds: try fields.optionalNumber("max_seconds"),
                                              maxFramesPerSecond: try fields.optionalNumber("max_fps"),
                                              maxLoops: try fields.optionalNumber("max_loops").map { Int($0) }))
        }
        try fields.finish()
        return ProfileRule(kind, source: source, read: read, note: note)
    }

    static func size(_ text: String) throws(CoreError) -> PixelSize {
        do { return try PixelSize(parsing: text) } catch { throw .profileData("size '\(text)': \(error.description)") }
    }

    /// `YYYY-MM` or `YYYY-MM-DD` with a month of 1 to 12 and a day of 1 to 31.
    static func isDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, parts[0].count == 4, Int(parts[0]) != nil,
              parts[1].count == 2, let month = Int(parts[1]), (1...12).contains(month) else { return false }
        guard parts.count == 3 else { return true }
        return parts[2].count == 2 && Int(parts[2]).map { (1...31).contains($0) } == true
    }

    /// An object's fields, taken one by one; ``finish()`` refuses any left over.
    struct Fields {
        var pairs: [(String, JSONValue)]
        let what: String

        init(_ value: JSONValue, what: String, allowed: Set<String>) throws(CoreError) {
            guard case .object(let pairs) = value else { throw .profileData("\(what) must be an object") }
            var seen = Set<String>()
            for (key, _) in pairs {
                guard allowed.contains(key) else { throw .profileData("\(what) has an unknown field '\(key)'") }
                guard seen.insert(key).inserted else { throw .profileData("\(what) has '\(key)' twice") }
            }
            self.pairs = pairs
            self.what = what
        }

        func peek(_ key: String) -> JSONValue? { pairs.first { $0.0 == key }?.1 }

        mutating func take(_ key: String) -> JSONValue? {
            guard let index = pairs.firstIndex(where: { $0.0 == key }) else { return nil }
            return pairs.remove(at: index).1
        }

        mutating func string(_ key: String) throws(CoreError) -> String {
            guard case .string(let text)? = take(key), !text.isEmpty else {
                throw .profileData("\(what) needs \"\(key)\": a text")
            }
            return text
        }

        mutating func optionalString(_ key: String) throws(CoreError) -> String? {
            guard peek(key) != nil else { return nil }
            return try string(key)
        }

        mutating func strings(_ key: String) throws(CoreError) -> [String] {
            guard case .array(let values)? = take(key) else { throw .profileData("\(what) needs \"\(key)\": a list") }
            return try values.map { (value) throws(CoreError) in
                guard case .string(let text) = value else { throw .profileData("\(what): \(key) holds a non-text") }
                return text
            }
        }

        mutating func bytes(_ key: String) throws(CoreError) -> Int {
            guard case .int(let bytes)? = take(key), bytes > 0 else {
                throw .profileData("\(what) needs \"\(key)\": a whole number of bytes above 0")
            }
            return bytes
        }

        mutating func bool(_ key: String) throws(CoreError) -> Bool {
            guard case .bool(let value)? = take(key) else { throw .profileData("\(what) needs \"\(key)\": true or false") }
            return value
        }

        mutating func optionalNumber(_ key: String) throws(CoreError) -> Double? {
            switch take(key) {
            case nil: return nil
            case .int(let value)? where value > 0: return Double(value)
            case .double(let value)? where value > 0: return value
            default: throw .profileData("\(what): \(key) must be a number above 0")
            }
        }

        func finish() throws(CoreError) {
            if let (key, _) = pairs.first { throw .profileData("\(what): '\(key)' is not read") }
        }
    }
}
