#!/usr/bin/env bash
# Builds a minimal libvips, with Highway for its SIMD paths, from Debian's own source packages
# (Debian's patches, security fixes included) and installs it into a project-local prefix.
#
#   scripts/build-libvips.sh [PREFIX]
#
#   PREFIX   where to install (default: .build/libvips inside the repository)
#
# Why not Debian's libvips42: it is built with every optional format (librsvg, poppler,
# hdf5/matio, cfitsio, OpenEXR, ImageMagick, libheif, OpenSlide, ...): a program linked to it
# maps ~104 shared libraries, and vips_init() dlopens five more modules, which costs tens of ms
# of CPU before any pixel is touched. This build keeps only what creative-tool uses: PNG
# (libpng), JPEG (libjpeg-turbo), WebP, GIF load (built-in nsgif) and save (cgif), palette PNG
# (libimagequant), EXIF (libexif), ICC (lcms2), text (pangocairo), zlib. No modules.
#
# Why trixie's 8.16.1 rather than bookworm's 8.14.1: 8.16 resamples (reduceh/reducev), converts
# and composites with Highway SIMD; 8.14's horizontal reduce is scalar C and was a third of a
# banner render's CPU time (make bench, make loadtest). Highway (1.2.0, also trixie's; bookworm
# has 1.0.3, older than libvips accepts) is built first as a static, position-independent
# library, so libvips.so carries it and nothing more is needed at run time. Both build against
# bookworm's own -dev packages.
#
# The sources are Debian's .dsc packages from deb.debian.org, pinned by the SHA-256 of their
# .dsc (each .dsc is signed by its Debian maintainer; the pins were taken after checking those
# signatures with debian-keyring); dpkg-source then checks every other file against the .dsc.
# To move to a newer Debian revision, change the version and the .dsc hash below together.
#
# Idempotent: does nothing when PREFIX already holds this version built with these options.
# Installs the missing apt build dependencies (sudo only when not root).
#
# Environment:
#   LIBVIPS_LIBRARY   shared (default) or static. A static build rewrites vips.pc so that a
#                     plain `pkg-config --libs vips` links every dependency. Caveat: SwiftPM
#                     puts -L/usr/lib/<triplet> (from other pkg-config packages) before this
#                     prefix, so while libvips-dev is installed its libvips.so wins over the
#                     libvips.a here; the shared build with an rpath has no such catch.
#   LIBVIPS_FORCE=1   rebuild even when PREFIX is up to date
#
# Prints, on standard output, the PKG_CONFIG_PATH to use (and for a shared build the rpath).
set -euo pipefail

REPO_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PREFIX="${1:-$REPO_DIR/.build/libvips}"
LIBRARY="${LIBVIPS_LIBRARY:-shared}"

# Debian source packages: name, version, pool folder, SHA-256 of the .dsc.
VIPS_SOURCE=(vips 8.16.1-1+deb13u1 main/v/vips 60205e00d061b9d8072938e04899f2ca2fdac0513068e561d33f7c87fae1ae2e)
HIGHWAY_SOURCE=(highway 1.2.0-2 main/h/highway dbb82d12fe7a8a7cae6970d5ccc74d0854ce405dfaab3a7f0d1345cfe351dcd4)
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"

note() { echo "build-libvips: $*" >&2; }
die() { note "$*"; exit 1; }

case "$LIBRARY" in shared|static) ;; *) die "LIBVIPS_LIBRARY must be shared or static" ;; esac
mkdir -p "$PREFIX"
PREFIX="$(cd "$PREFIX" && pwd)"
PCDIR="$PREFIX/lib/pkgconfig"
STAMP="$PREFIX/share/build-libvips.stamp"
# The prefix is emptied before each install: only ever one this script made, or an empty one.
[ -f "$STAMP" ] || [ -z "$(ls -A "$PREFIX")" ] \
    || die "$PREFIX is neither empty nor a prefix made by this script"

# Every optional dependency off unless listed as enabled; the enabled ones are required, so a
# missing -dev package fails the configure step instead of silently dropping a format.
MESON_OPTIONS=(
    --buildtype=release -Dmodules=disabled -Ddeprecated=true -Dintrospection=disabled
    -Dcplusplus=false -Dexamples=false -Ddoxygen=false -Dgtk_doc=false -Dvapi=false
    -Dpng=enabled -Djpeg=enabled -Dwebp=enabled -Dcgif=enabled -Dimagequant=enabled
    -Dexif=enabled -Dlcms=enabled -Dpangocairo=enabled -Dzlib=enabled -Dhighway=enabled
    -Dnsgif=true -Dppm=true -Danalyze=true -Dradiance=true
    -Dorc=disabled -Dspng=disabled -Dquantizr=disabled -Dfontconfig=disabled -Dtiff=disabled
    -Drsvg=disabled -Dpoppler=disabled -Dpdfium=disabled -Dopenslide=disabled -Darchive=disabled
    -Dheif=disabled -Djpeg-xl=disabled -Dopenexr=disabled -Dopenjpeg=disabled
    -Dmatio=disabled -Dcfitsio=disabled -Dfftw=disabled -Dmagick=disabled -Dnifti=disabled
    "-Ddefault_library=$LIBRARY"
)
CONFIG="vips=${VIPS_SOURCE[1]} highway=${HIGHWAY_SOURCE[1]} ${MESON_OPTIONS[*]}"

# Downloads a pinned source package and unpacks it (Debian patches applied) into $WORK/NAME.
fetch_source() {
    local name="$1" version="$2" pool="$3" sha256="$4"
    local dsc="${name}_${version}.dsc"
    note "fetching Debian's $name $version source package"
    curl -fsSL --retry 3 -o "$WORK/src/$dsc" "$MIRROR/pool/$pool/$dsc" || die "cannot download $dsc"
    echo "$sha256  $WORK/src/$dsc" | sha256sum -c --quiet - || die "$dsc does not match its pinned SHA-256"
    local file
    for file in $(awk '/^Checksums-Sha256:/ {on = 1; next} /^[^ ]/ {on = 0} on {print $3}' "$WORK/src/$dsc"); do
        curl -fsSL --retry 3 -o "$WORK/src/$file" "$MIRROR/pool/$pool/$file" || die "cannot download $file"
    done
    # Checks every file against the .dsc and applies debian/patches. It only warns that it cannot
    # check the maintainer's signature without debian-keyring: the pinned hash stands for that.
    (cd "$WORK" && dpkg-source -x "src/$dsc" "$name" >/dev/null 2>"$WORK/dpkg-source.log") \
        || { cat "$WORK/dpkg-source.log" >&2; die "dpkg-source failed for $dsc"; }
}

if [ -z "${LIBVIPS_FORCE:-}" ] && [ -f "$STAMP" ] && [ "$(head -n 1 "$STAMP")" = "$CONFIG" ] \
    && [ -n "$(PKG_CONFIG_PATH="$PCDIR" pkg-config --modversion vips 2>/dev/null)" ]; then
    note "libvips already in $PREFIX ($(sed -n 2p "$STAMP"))"
else
    packages=(
        curl ca-certificates dpkg-dev xz-utils gcc g++ libc6-dev pkgconf meson ninja-build cmake
        libglib2.0-dev libexpat1-dev zlib1g-dev libpng-dev libjpeg62-turbo-dev libwebp-dev
        libcgif-dev libimagequant-dev libexif-dev liblcms2-dev libpango1.0-dev libcairo2-dev
    )
    missing=()
    for package in "${packages[@]}"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
            || missing+=("$package")
    done
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    if [ ${#missing[@]} -gt 0 ]; then
        note "installing: ${missing[*]}"
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
            "${missing[@]}" >/dev/null
    fi

    WORK="$(mktemp -d "${TMPDIR:-/tmp}/build-libvips.XXXXXX")"
    trap 'rm -rf "$WORK"' EXIT
    mkdir -p "$WORK/src"
    fetch_source "${VIPS_SOURCE[@]}"
    fetch_source "${HIGHWAY_SOURCE[@]}"

    # --- configure, build, install ----------------------------------------------------------
    # Debian's hardening flags (hardening=+all, as debian/rules has), without its -g -O2: the
    # release buildtype gives -O3 and, through libvips' meson.build, G_DISABLE_CHECKS,
    # G_DISABLE_CAST_CHECKS and G_DISABLE_ASSERT, which Debian's plain buildtype leaves on;
    # measured: ~8 ms less wall and ~15 ms less CPU for one 2184x270 PNG render.
    export DEB_BUILD_MAINT_OPTIONS=hardening=+all
    strip_debug() { sed -e 's/\(^\| \)-g\( \|$\)/ /' -e 's/\(^\| \)-O2\( \|$\)/ /'; }
    CFLAGS="$(dpkg-buildflags --get CFLAGS | strip_debug)"
    CXXFLAGS="$(dpkg-buildflags --get CXXFLAGS | strip_debug)"
    CPPFLAGS="$(dpkg-buildflags --get CPPFLAGS)"
    LDFLAGS="$(dpkg-buildflags --get LDFLAGS)"
    export CFLAGS="$CFLAGS $CPPFLAGS" CXXFLAGS="$CXXFLAGS $CPPFLAGS" LDFLAGS
    rm -rf "$PREFIX"
    note "building highway ${HIGHWAY_SOURCE[1]} (static) into $PREFIX"
    cmake -S "$WORK/highway" -B "$WORK/highway-build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_INSTALL_PREFIX="$PREFIX" -DCMAKE_INSTALL_LIBDIR=lib -DBUILD_SHARED_LIBS=OFF \
        -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DBUILD_TESTING=OFF -DHWY_ENABLE_TESTS=OFF \
        -DHWY_ENABLE_EXAMPLES=OFF -DHWY_ENABLE_CONTRIB=OFF -DHWY_ENABLE_INSTALL=ON \
        >"$WORK/highway.log" 2>&1 \
        && ninja -C "$WORK/highway-build" install >>"$WORK/highway.log" 2>&1 \
        || { tail -n 50 "$WORK/highway.log" >&2; die "highway build failed"; }
    note "building libvips ${VIPS_SOURCE[1]} ($LIBRARY) into $PREFIX"
    PKG_CONFIG_PATH="$PCDIR${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}" meson setup "$WORK/build" "$WORK/vips" \
        --prefix="$PREFIX" --libdir=lib "${MESON_OPTIONS[@]}" >"$WORK/configure.log" 2>&1 \
        || { cat "$WORK/configure.log" >&2; die "meson setup failed"; }
    ninja -C "$WORK/build" >"$WORK/build.log" 2>&1 \
        || { tail -n 50 "$WORK/build.log" >&2; die "build failed"; }
    meson install -C "$WORK/build" --strip >/dev/null

    if [ "$LIBRARY" = static ]; then
        # SwiftPM reads only Requires and Libs: every dependency must be there. Meson already
        # lists a static library's dependencies as public; this makes sure of it. It also drops
        # the -DHAVE_CONFIG_H=1 that meson leaks into a static library's Cflags.
        pc="$PCDIR/vips.pc"
        requires_private="$(sed -n 's/^Requires.private: *//p' "$pc")"
        libs_private="$(sed -n 's/^Libs.private: *//p' "$pc")"
        [ -z "$requires_private" ] || sed -i "s|^Requires:.*|&, $requires_private|" "$pc"
        [ -z "$libs_private" ] || sed -i "s|^Libs:.*|& $libs_private|" "$pc"
        sed -i -e '/^Requires.private:/d' -e '/^Libs.private:/d' \
            -e '/^Cflags:/s/ -DHAVE_CONFIG_H=1//' "$pc"
    fi
    mkdir -p "$PREFIX/share"
    printf '%s\n%s\n' "$CONFIG" "debian vips ${VIPS_SOURCE[1]}, highway ${HIGHWAY_SOURCE[1]}, built $(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$STAMP"
    note "installed libvips ${VIPS_SOURCE[1]} into $PREFIX"
fi

echo "PKG_CONFIG_PATH=$PCDIR"
if [ "$LIBRARY" = shared ]; then
    echo "# link with an rpath, e.g. swift build -Xlinker -rpath -Xlinker $PREFIX/lib"
fi
