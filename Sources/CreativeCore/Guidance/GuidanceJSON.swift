extension Guidance {
    /// The stable JSON document for the dashboard backend (schemas/guidance.schema.json).
    public var json: JSONValue {
        .object([
            ("product", .string(Product.banner.rawValue)),
            ("sizes", .array(Catalog.entries.map { entry in
                .object(entry.jsonFields + [
                    ("shape", .string(entry.shape.rawValue)),
                    ("aspect_ratio", .double(entry.size.aspectRatio)),
                    ("purpose", .string(entry.purpose)),
                    ("retina_of_pixels", entry.retinaOf?.json ?? .null),
                    ("served_slot_count", .int(slots(servedBy: entry.size).count)),
                    ("safe_area_pixels", SafeArea(artwork: entry.size).json),
                    ("min_text_height_pixels", minTextPixels(for: entry.size).map { .int($0) } ?? .null),
                ])
            })),
            ("coverage", .object([
                ("recommended_upload_pixels", .array(Catalog.adaptiveSizes.map(\.json))),
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
            ("artwork_pixels", assignment.artwork.json),
            ("letterbox_share", .double(1 - assignment.placement.fillShare)),
        ])
    }
}
