extension Guidance {
    /// A strip product's (a banner's) stable JSON document for the dashboard backend
    /// (schemas/guidance.schema.json).
    public var json: JSONValue {
        .object([
            ("product", .string(product.rawValue)),
            ("sizes", .array(product.entries.map { entry in
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
                ("recommended_upload_pixels", .array(product.recommendedUploads.map(\.json))),
                ("note", .string(coverageNote)),
            ])),
            ("anchored", .object([
                ("rule", .string(AnchoredRule.qartvelo.rawValue)),
                ("slots", .array(anchored.map(Guidance.slotJSON))),
            ])),
            ("inline", .object([
                ("max_height_points", .int(inlineMaxHeight)),
                ("note", .string(inlineNote)),
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
