# creative-tool container image.
#   docker build -t creative-tool .
#   docker run --rm -v "$PWD:/work" creative-tool render ...
# Lint with scripts/lint-dockerfile.sh.

# ---- build: Swift toolchain on Debian 12, same distribution as the runtime stage ----
# 6.3 is the toolchain the project is developed and tested with (6.3.1); keep them in step,
# e.g. Sources/CArtwork uses C23 #embed, which depends on the toolchain's bundled clang.
FROM swift:6.3-bookworm AS build
WORKDIR /src

# The same dependency script as the Makefile and CI (root here, so no sudo);
# copied alone first so this layer stays cached while the sources change.
COPY scripts/install-deps.sh scripts/build-libvips.sh scripts/
RUN scripts/install-deps.sh && scripts/build-libvips.sh /opt/libvips

# Package.swift also needs Tests/ and TestImages/ (embedded artwork); .dockerignore trims the rest.
COPY . .
RUN mkdir -p .build && ln -sfn /opt/libvips .build/libvips \
    && swift build -c release --static-swift-stdlib \
    && install -D -m 0755 .build/release/creative-tool /out/creative-tool \
    && install -D -m 0644 -t /out/lib /opt/libvips/lib/libvips.so.42*

# ---- runtime: only the shared libraries the binary links (see ldd) and the fonts ----
FROM debian:bookworm-slim

# The minimal libvips (built above from Debian's source) needs only these of Debian's libraries;
# libmicrohttpd12 is the HTTP service.
# Versions are not pinned: bookworm point and security releases replace them on the mirrors.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        libglib2.0-0 libexpat1 libimagequant0 libcgif0 libexif12 libjpeg62-turbo libpng16-16 \
        libwebp7 libwebpmux3 libwebpdemux2 libpangocairo-1.0-0 libpango-1.0-0 libcairo2 \
        liblcms2-2 libstdc++6 \
        libmicrohttpd12 \
        fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 creative \
    && useradd --system --uid 10001 --gid creative --home-dir /work --no-create-home \
        --shell /usr/sbin/nologin creative \
    && install -d -o creative -g creative /work

COPY --from=build /out/creative-tool /usr/local/bin/creative-tool
# Found through the binary's rpath $ORIGIN/../lib/creative-tool.
COPY --from=build /out/lib/ /usr/local/lib/creative-tool/

# Numeric, so the runtime (e.g. Kubernetes runAsNonRoot) can check it is not root.
USER 10001:10001
WORKDIR /work
# Fails the build if a shared library is missing from this stage.
RUN creative-tool --help > /dev/null

# The HTTP service; the container's network namespace is its boundary, so it binds every interface.
# Add "--token-file", "/run/secrets/token" to require a bearer token on the /v1 routes.
EXPOSE 8080
# The image has no curl or wget: `serve --healthcheck` GETs /healthz on 127.0.0.1:8080 itself.
HEALTHCHECK --interval=30s --timeout=5s --start-period=5s --retries=3 \
    CMD ["creative-tool", "serve", "--healthcheck", "--port", "8080"]

ENTRYPOINT ["creative-tool"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8080"]
