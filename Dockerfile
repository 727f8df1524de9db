# creative-tool container image.
#   docker build -t creative-tool .
#   docker run --rm -v "$PWD:/work" creative-tool render ...
#   docker run -p 8080:8080 -v "$PWD/token:/run/secrets/creative-tool/token:ro" creative-tool
# Lint with scripts/lint-dockerfile.sh.

# 6.3 is the toolchain the project is developed and tested with (6.3.1); keep them in step,
# e.g. Sources/CArtwork uses C23 #embed, which depends on the toolchain's bundled clang.
# ---- libvips: the pinned pyvips-binary wheel's libvips (scripts/fetch-libvips.sh) ----
# Its own stage, so this layer stays cached while the Swift sources change. pip checks the wheel
# against scripts/libvips-wheel.txt's sha256; the headers are libvips-dev's, unpacked beside it.
# When it cannot be fetched the script warns and leaves no library: the image then uses Debian's
# libvips42.
FROM swift:6.3-bookworm AS libvips
COPY scripts/install-deps.sh scripts/fetch-libvips.sh scripts/libvips-wheel.txt /src/scripts/
RUN /src/scripts/install-deps.sh && /src/scripts/fetch-libvips.sh /opt/libvips \
    && mkdir -p /opt/libvips/lib

# ---- build: Swift toolchain on Debian 12, same distribution as the runtime stage ----
FROM swift:6.3-bookworm AS build
WORKDIR /src
COPY scripts/install-deps.sh scripts/
COPY --from=libvips /opt/libvips /opt/libvips
# The system libvips (libvips-dev) only when the wheel could not be fetched.
RUN if [ -f /opt/libvips/lib/pkgconfig/vips.pc ]; then scripts/install-deps.sh; \
    else scripts/install-deps.sh system; fi
# Package.swift also needs Tests/ and TestImages/ (embedded artwork); .dockerignore trims the rest.
COPY . .
# CREATIVE_LIBVIPS=installed: the binary looks for libvips only in ../lib/creative-tool beside
# itself (no build-tree path in its RUNPATH). The wheel's vips.pc links its one library by file
# name (line 2 of the stamp); that file alone is copied.
RUN if [ -f /opt/libvips/lib/pkgconfig/vips.pc ]; then export PKG_CONFIG_PATH=/opt/libvips/lib/pkgconfig; fi \
    && CREATIVE_LIBVIPS=installed swift build -c release --static-swift-stdlib \
    && install -D -m 0755 .build/release/creative-tool /out/bin/creative-tool \
    && mkdir -p /out/lib \
    && if [ -f /opt/libvips/wheel.stamp ]; then \
           install -m 0644 "/opt/libvips/lib/$(sed -n 2p /opt/libvips/wheel.stamp)" /out/lib/; fi

# ---- runtime: only the shared libraries the binary links (see ldd) and the fonts ----
FROM debian:bookworm-slim

# Found through the binary's RUNPATH $ORIGIN/../lib/creative-tool: the wheel's one
# libvips-<hash>.so.42 (its GLib, pango, fontconfig and codecs inside it); empty when the wheel
# could not be fetched, and then Debian's libvips42 is installed below instead.
COPY --from=build /out/lib/ /usr/local/lib/creative-tool/
# The wheel's libvips needs only glibc and libstdc++; fontconfig-config gives its fontconfig
# /etc/fonts. libpng16-16 and zlib: the strict PNG checks and writer; libzip4 (with libcrypto,
# which SHA-256 uses) and libgumbo1: HTML5 bundles; libmicrohttpd12: the HTTP service; libcurl4
# and libhiredis0.14: `worker` and `enqueue` (S3 and Redis Streams).
# Versions are not pinned: bookworm point and security releases replace them on the mirrors.
# hadolint ignore=DL3008
RUN extra="" \
    && if ! ls /usr/local/lib/creative-tool/libvips-*.so.42 >/dev/null 2>&1; then extra="libvips42"; fi \
    && apt-get update \
    && apt-get install -y --no-install-recommends \
        libstdc++6 libpng16-16 zlib1g libssl3 libzip4 libgumbo1 libmicrohttpd12 libcurl4 libhiredis0.14 \
        fonts-dejavu-core fontconfig-config \
        $extra \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 creative \
    && useradd --system --uid 10001 --gid creative --home-dir /work --no-create-home \
        --shell /usr/sbin/nologin creative \
    && install -d -o creative -g creative /work
COPY --from=build /out/bin/creative-tool /usr/local/bin/creative-tool

# The service's ports: the data plane, and the probes on their own listener. The HEALTHCHECK
# and `serve` both read them from here (change them with `docker run -e`).
ENV CREATIVE_PORT=8080 CREATIVE_ADMIN_PORT=8081

# As root, once: a preview sheet (text through pango) writes the fontconfig cache into
# /var/cache/fontconfig, so the unprivileged service does not scan the fonts at every start.
SHELL ["/bin/sh", "-eu", "-c"]
RUN creative-tool test-artwork --output-dir /tmp/fonts \
    && creative-tool process /tmp/fonts/test-artwork-960x150.png --output-dir /tmp/fonts/process \
    && test -s /tmp/fonts/process/preview.png && rm -rf /tmp/fonts
# The man page and the bash and zsh completions, written by this binary from its own option
# declarations (docs/creative-tool.1 and docs/completions/ are the same text): `man creative-tool`
# where a man reader is installed; bash-completion and zsh look in these folders.
RUN install -d /usr/local/share/man/man1 /usr/local/share/bash-completion/completions \
        /usr/local/share/zsh/site-functions \
    && creative-tool help --format man > /usr/local/share/man/man1/creative-tool.1 \
    && creative-tool help --format bash > /usr/local/share/bash-completion/completions/creative-tool \
    && creative-tool help --format zsh > /usr/local/share/zsh/site-functions/_creative-tool

# Numeric, so the runtime (e.g. Kubernetes runAsNonRoot) can check it is not root.
USER 10001:10001
WORKDIR /work
# Fails the build when a runtime library is missing: a real render of the built-in artwork, and
# the service answering its own health check (then stopped with kill: DL3001 is about running
# interactive tools in a container, not this).
# hadolint ignore=DL3001
RUN creative-tool --version \
    && creative-tool render --slot 390x61 --scale 3 --output /tmp/smoke.png \
    && test -s /tmp/smoke.png && rm /tmp/smoke.png \
    && (creative-tool serve & echo $! > /tmp/serve.pid) \
    && ok=no && for _ in 1 2 3 4 5 6 7 8 9 10; do \
           if creative-tool serve --healthcheck; then ok=yes; break; fi; sleep 0.5; done \
    && kill "$(cat /tmp/serve.pid)" && rm /tmp/serve.pid && test "$ok" = yes

EXPOSE 8080
# The image has no curl or wget: `serve --healthcheck` GETs /healthz on the admin listener
# (loopback, CREATIVE_ADMIN_PORT) itself.
HEALTHCHECK --interval=30s --timeout=5s --start-period=5s --retries=3 \
    CMD ["creative-tool", "serve", "--healthcheck"]

ENTRYPOINT ["creative-tool"]
# The service on every interface of the container (port CREATIVE_PORT); the probes stay on the
# loopback admin listener. It needs the bearer token mounted as a secret, e.g.
#   docker run -v "$PWD/token:/run/secrets/creative-tool/token:ro" ...
# without it `serve` refuses to start; add --allow-unauthenticated to serve without one (logged
# as a warning).
CMD ["serve", "--host", "0.0.0.0", "--token-file", "/run/secrets/creative-tool/token"]
