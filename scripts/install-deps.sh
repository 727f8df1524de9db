#!/usr/bin/env bash
# Installs the Debian packages creative-tool needs, only those that are missing.
#   scripts/install-deps.sh [wheel]  build and runtime packages (libraries, fonts; lcms2 for tests)
#                                    for the wheel's libvips: its headers come unpacked from
#                                    libvips-dev's package (scripts/fetch-libvips.sh), so the
#                                    ~220 packages of the system libvips are not installed; Debian's
#                                    pip when no pip works (the wheel is fetched with pip)
#   scripts/install-deps.sh system   the same, plus libvips-dev: the system libvips (LIBVIPS=system,
#                                    and the fallback when the wheel cannot be had)
#   scripts/install-deps.sh bench    plus the peers the benchmarks compare against
#   scripts/install-deps.sh browser  plus headless Chromium, its driver and Debian's Selenium
#                                    (the browser tests and `make docs`; no PyPI needed)
#   scripts/install-deps.sh docs     plus mandoc and zsh (scripts/check-docs.sh lints the man page and
#                                    parses the zsh completion; groff and man come with man-db)
#   scripts/install-deps.sh pip      Debian's pip only
# Used by the Makefile, CI and the Dockerfile's build stages, so all three install the same.
set -euo pipefail

# libglib2.0-dev: the GLib headers libvips' own include; libssl-dev: libcrypto's SHA-256;
# fontconfig-config: /etc/fonts, which the fontconfig inside the wheel's libvips reads to find
# DejaVu for the lettering (without it: "Fontconfig error: Cannot load default config file").
# libcurl4-openssl-dev and libhiredis-dev: `worker` and `enqueue` (S3 and Redis Streams);
# redis-server: the real Redis their tests start (the S3 store is SeaweedFS, from PyPI: scripts/test.sh).
packages=(pkg-config libglib2.0-dev libpng-dev zlib1g-dev libssl-dev libmicrohttpd-dev liblcms2-dev libzip-dev
    libgumbo-dev fonts-dejavu-core fontconfig-config libcurl4-openssl-dev libhiredis-dev redis-server)
has_pip() { python3 -m pip --version >/dev/null 2>&1 || /usr/bin/python3 -m pip --version >/dev/null 2>&1; }
case "${1:-wheel}" in
    wheel) has_pip || packages+=(python3-pip) ;;
    system) packages+=(libvips-dev) ;;
    bench) packages+=(imagemagick libvips-tools hyperfine wrk curl python3-pil python3-numpy python3-skimage time
                      pngquant optipng webp libjemalloc2 libvips-dev) ;;
    browser) packages+=(chromium chromium-driver python3-selenium) ;;
    docs) packages+=(mandoc zsh groff-base man-db) ;;
    pip) packages=(python3-pip) ;;
    *) echo "install-deps: unknown set '$1' (wheel, system, bench, browser, docs, pip)" >&2; exit 64 ;;
esac

missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "installing: ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
