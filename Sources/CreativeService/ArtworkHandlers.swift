import CreativeCore
import CreativeImaging

/// `GET /v1/test-artwork/{size}.png`: the built-in public test artwork, byte for byte.
enum ArtworkHandlers {
    static func artwork(_ request: Request, _ context: ServiceContext) throws(ServiceError) -> Response {
        let name = request.path.split(separator: "/").last.map(String.init) ?? ""
        guard let size = TestArtwork.sizes.first(where: { TestArtwork.fileName(for: $0) == "test-artwork-\(name)" }),
              let bytes = TestArtwork.embedded(size) else {
            throw .notFound(TextFormat.clipped(request.path, 200) + " (test artwork sizes: "
                            + TestArtwork.sizes.map(\.description).joined(separator: ", ") + ")")
        }
        var response = Response(contentType: OutputFormat.png.mediaType, body: bytes)
        response.headers.append(("Cache-Control", "public, max-age=86400"))
        return response
    }
}
