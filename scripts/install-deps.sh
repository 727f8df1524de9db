#!/usr/bin/env bash
# Installs the Debian packages creative-tool needs, only those that are missing.
#   scripts/install-deps.sh          build and runtime packages (libraries, fonts; lcms2 for tests)
#   scripts/install-deps.sh bench    plus the peers the benchmarks compare against
#   scripts/install-deps.sh browser  plus headless Chromium, its driver and Debian's Selenium
#                                    (the browser tests and `make docs`; no PyPI needed)
#   scripts/install-deps.sh pip      Debian's pip only (scripts/fetch-libvips.sh, when no pip is
#                                    on PATH)
# Used by the Makefile, CI and the Dockerfile's build stage, so all three install the same.
set -euo pipefail

# libvips-dev: the headers (and, for LIBVIPS=system or the fallback, the library); libssl-dev:
# libcrypto's SHA-256.
packages=(pkg-config libvips-dev libpng-dev zlib1g-dev libssl-dev libmicrohttpd-dev liblcms2-dev libzip-dev
    libgumbo-dev fonts-dejavu-core)
if [ "${1:-}" = "bench" ]; then
    packages+=(imagemagick libvips-tools hyperfine wrk curl python3-pil python3-numpy python3-skimage time
        pngquant optipng webp)
fi
if [ "${1:-}" = "pip" ]; then
    packages=(python3-pip)
fi
if [ "${1:-}" = "browser" ]; then
    packages+=(chromium chromium-driver python3-selenium)
fi

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
