import CreativeCore

/// A job entry's fields as `process`'s options (``ProcessRequest/jobFields``): the third
/// ``OptionSource``, beside the command line and the HTTP query. Each field is named as a query
/// parameter is (`format`, `weight_budget`), so a job reads and refuses its options with the same
/// declarations and the same sentences (`format=jpg`: "format must be one of ...; did you mean
/// 'jpeg'?"). A field the entry leaves out, or gives empty, takes the worker's own default (its
/// `--product`, `--format`...), given here as text by option name.
///
/// The worker's own fields (`id`, `source`, `sources`) are no options: ``JobHandler`` reads them
/// itself. Other fields are the pipeline's (a trace id, a note) and are left alone, except one
/// spelled as a job field is (`Format`, `weight-budget`), which would otherwise be ignored.
struct JobFields: OptionSource {
    let entry: StreamEntry
    /// The worker's defaults, by option name, as its command line gave them.
    let defaults: [String: String]

    /// The fields the worker reads itself (not options).
    static let ownFields: Set<String> = ["id", "source", "sources"]

    func given(_ option: OptionDeclaration) -> String? {
        guard ProcessRequest.jobFields.options.contains(where: { $0.name == option.name }) else { return nil }
        if let value = entry[option.name], !value.isEmpty { return value }
        return defaults[option.name]
    }

    func every(_ option: OptionDeclaration) -> [String] { given(option).map { [$0] } ?? [] }

    func spelling(_ option: OptionDeclaration) -> String { option.name }

    /// Refuses a job field or own field given twice, and a field spelled as a job field is
    /// but not exactly (which the reading would not see).
    /// - Throws: ``FleetError/badJob(_:)`` naming the field.
    func check() throws(FleetError) {
        let names = ProcessRequest.jobFields.options.map(\.name)
        let known = Set(names).union(Self.ownFields)
        var seen: Set<String> = []
        for (name, _) in entry.fields {
            if known.contains(name) {
                guard seen.insert(name).inserted else {
                    throw .badJob("field '\(name)' is given twice"
                                  + (name == "source" ? "; a campaign names its sources in one field, sources, one per line" : ""))
                }
            } else if let meant = KeySuggestion.nearest(to: name, in: names + Self.ownFields.sorted()),
                      Self.folded(meant) == Self.folded(name) {
                throw .badJob("unknown field '\(TextFormat.clipped(name, 64))'; did you mean '\(meant)'?")
            }
        }
    }

    /// Lower case without `_`, `-` and spaces: `Weight-Budget` and `weight_budget` agree.
    private static func folded(_ name: String) -> String {
        String(name.lowercased().filter { $0 != "_" && $0 != "-" && $0 != " " })
    }
}
