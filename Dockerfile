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
COPY scripts/install-deps.sh scripts/install-deps.sh
RUN scripts/install-deps.sh

# Package.swift also needs Tests/ and TestImages/ (embedded artwork); .dockerignore trims the rest.
COPY . .
RUN swift build -c release --static-swift-stdlib \
    && install -D -m 0755 .build/release/creative-tool /out/creative-tool

# ---- runtime: only the shared libraries the binary links (see ldd) and the fonts ----
FROM debian:bookworm-slim

# libvips42 brings glib, libstdc++ and its codec/font libraries as dependencies;
# libmicrohttpd12 is for the coming `serve` command.
# Versions are not pinned: bookworm point and security releases replace them on the mirrors.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        libvips42 \
        libpng16-16 \
        libmicrohttpd12 \
        fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 creative \
    && useradd --system --uid 10001 --gid creative --home-dir /work --no-create-home \
        --shell /usr/sbin/nologin creative \
    && install -d -o creative -g creative /work

COPY --from=build /out/creative-tool /usr/local/bin/creative-tool

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
