/// The safety rules for a bundle entry's name: a name is a relative path inside the bundle, in
/// UTF-8, with no way out of it (zip slip) and no platform-specific form.
public enum EntryName {
    /// Why a raw entry name is refused (`unsafe_path`), or nil when it is safe.
    public static func unsafeReason(_ raw: [UInt8]) -> String? {
        if raw.isEmpty { return "an empty name" }
        if raw.contains(0) { return "a NUL byte in the name" }
        guard let name = String(validating: raw, as: UTF8.self) else { return "a name that is not valid UTF-8" }
        if name.hasPrefix("/") { return "an absolute path" }
        if name.contains("\\") { return "a backslash in the name" }
        let scalars = Array(name.unicodeScalars)
        if scalars.count >= 2, scalars[1] == ":", scalars[0].properties.isAlphabetic, scalars[0].isASCII {
            return "a drive letter"
        }
        if name.split(separator: "/", omittingEmptySubsequences: false).contains("..") {
            return "a '..' component (it would leave the bundle)"
        }
        return nil
    }

    /// True for files a Mac adds to a zip, which are skipped with an `ignored_file` warning.
    public static func isIgnored(_ name: String) -> Bool {
        name.hasPrefix("__MACOSX/") || name == ".DS_Store" || name.hasSuffix("/.DS_Store")
    }

    /// The lower-case extension of a name's last component, or "" when it has none.
    public static func fileExtension(_ name: String) -> String {
        let base = name.split(separator: "/").last.map(String.init) ?? name
        guard let dot = base.lastIndex(of: "."), dot != base.startIndex else { return "" }
        return base[base.index(after: dot)...].lowercased()
    }

    /// The folder part of a name (`""` at the root, else ending in `/`).
    public static func folder(_ name: String) -> String {
        guard let slash = name.lastIndex(of: "/") else { return "" }
        return String(name[...slash])
    }
}
