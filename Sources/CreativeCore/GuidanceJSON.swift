extension Guidance {
    /// The stable JSON document for the dashboard backend (schema in README, "guidance JSON").
    public var json: JSONValue {
        .object([
            ("schema_version", .int(Guidance.schemaVersion)),
            ("sizes", .array(Catalog.entries.map { entry in
                .object(entry.jsonFields + [
                    ("shape", .string(entry.shape.rawValue)),
                    ("aspect_ratio", .double(entry.size.aspectRatio)),
                    ("purpose", .string(entry.purpose)),
                    ("retina_of", .optional(entry.retinaOf?.description)),
                    ("serves_anchored_slots", .int(slots(servedBy: entry.size).count)),
                    ("safe_area", SafeArea(artwork: entry.size).json),
                    ("min_text_px", minTextPixels(for: entry.size).map { .int($0) } ?? .null),
                ])
            })),
            ("coverage", .object([
                ("recommended_uploads", .array(Catalog.adaptiveSizes.map { .string($0.description) })),
                ("note", .string(Guidance.coverageNote)),
            ])),
            ("anchored", .object([
                ("rule", .string(AnchoredRule.qartvelo.rawValue)),
                ("slots", .array(anchored.map(Guidance.slotJSON))),
            ])),
            ("inline", .object([
                ("max_height_points", .int(inlineMaxHeight)),
                ("note", .string(Guidance.inlineNote)),
                ("slots", .array(inline.map(Guidance.slotJSON))),
            ])),
            ("formats", Guidance.formatsJSON),
        ])
    }

    static func slotJSON(_ assignment: SlotAssignment) -> JSONValue {
        .object(assignment.jsonFields + [
            ("artwork", .string(assignment.artwork.description)),
            ("letterbox_share", .double(1 - assignment.placement.fillShare)),
        ])
    }
}
