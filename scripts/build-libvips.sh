#!/usr/bin/env bash
# Builds a minimal libvips from Debian's own source package (with Debian's patches, security
# fixes included) and installs it into a project-local prefix.
#
#   scripts/build-libvips.sh [PREFIX]
#
#   PREFIX   where to install (default: .build/libvips inside the repository)
#
# Why: Debian's libvips42 is built with every optional format (librsvg, poppler, hdf5/matio,
# cfitsio, OpenEXR, ImageMagick, libheif, OpenSlide, ...): a program linked to it maps ~104
# shared libraries, and vips_init() dlopens five more modules, which costs tens of ms of CPU
# before any pixel is touched. This build keeps only what creative-tool uses: PNG (libpng),
# JPEG (libjpeg-turbo), WebP, GIF load (built-in nsgif) and save (cgif), palette PNG
# (libimagequant), EXIF (libexif), ICC (lcms2), text (pangocairo), orc, zlib. No modules.
#
# Idempotent: does nothing when PREFIX already holds this version built with these options.
# Installs the missing apt build dependencies (sudo only when not root). Fetches the source
# with apt through a temporary deb-src list: the system's apt sources are not touched.
#
# Environment:
#   LIBVIPS_VERSION   the upstream version expected from Debian (default 8.14.1, bookworm's)
#   LIBVIPS_LIBRARY   shared (default) or static. A static build rewrites vips.pc so that a
#                     plain `pkg-config --libs vips` links every dependency. Caveat: SwiftPM
#                     puts -L/usr/lib/<triplet> (from other pkg-config packages) before this
#                     prefix, so while libvips-dev is installed its libvips.so wins over the
#                     libvips.a here; the shared build with an rpath has no such catch.
#   LIBVIPS_ORC       enabled (default) or disabled
#   LIBVIPS_FORCE=1   rebuild even when PREFIX is up to date (e.g. for a new Debian revision)
#
# Prints, on standard output, the PKG_CONFIG_PATH to use (and for a shared build the rpath).
set -euo pipefail

REPO_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PREFIX="${1:-$REPO_DIR/.build/libvips}"
VERSION="${LIBVIPS_VERSION:-8.14.1}"
LIBRARY="${LIBVIPS_LIBRARY:-shared}"
ORC="${LIBVIPS_ORC:-enabled}"

note() { echo "build-libvips: $*" >&2; }
die() { note "$*"; exit 1; }

case "$LIBRARY" in shared|static) ;; *) die "LIBVIPS_LIBRARY must be shared or static" ;; esac
case "$ORC" in enabled|disabled) ;; *) die "LIBVIPS_ORC must be enabled or disabled" ;; esac
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
    --buildtype=release -Dmodules=disabled -Ddeprecated=true -Dintrospection=false -Dcplusplus=false
    -Dexamples=false -Ddoxygen=false -Dgtk_doc=false -Dvapi=false
    -Dpng=enabled -Djpeg=enabled -Dwebp=enabled -Dcgif=enabled -Dimagequant=enabled
    -Dexif=enabled -Dlcms=enabled -Dpangocairo=enabled -Dzlib=enabled "-Dorc=$ORC"
    -Dnsgif=true -Dppm=true -Danalyze=true -Dradiance=true
    -Dspng=disabled -Dquantizr=disabled -Dfontconfig=disabled -Dtiff=disabled
    -Drsvg=disabled -Dpoppler=disabled -Dpdfium=disabled -Dopenslide=disabled
    -Dheif=disabled -Djpeg-xl=disabled -Dopenexr=disabled -Dopenjpeg=disabled
    -Dmatio=disabled -Dcfitsio=disabled -Dfftw=disabled -Dmagick=disabled -Dnifti=disabled
    -Dgsf=disabled
    "-Ddefault_library=$LIBRARY"
)
CONFIG="version=$VERSION ${MESON_OPTIONS[*]}"

# --- already built? -------------------------------------------------------------------------
if [ -z "${LIBVIPS_FORCE:-}" ] && [ -f "$STAMP" ] && [ "$(head -n 1 "$STAMP")" = "$CONFIG" ] \
    && [ "$(PKG_CONFIG_PATH="$PCDIR" pkg-config --modversion vips 2>/dev/null)" = "$VERSION" ]; then
    note "libvips $VERSION already in $PREFIX ($(sed -n 2p "$STAMP"))"
else
    # --- build dependencies -----------------------------------------------------------------
    packages=(
        dpkg-dev xz-utils debian-archive-keyring gcc libc6-dev pkgconf meson ninja-build
        libglib2.0-dev libexpat1-dev zlib1g-dev libpng-dev libjpeg62-turbo-dev libwebp-dev
        libcgif-dev libimagequant-dev libexif-dev liblcms2-dev libpango1.0-dev libcairo2-dev
    )
    [ "$ORC" = enabled ] && packages+=(liborc-0.4-dev)
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

    # --- Debian's source package, through a private deb-src list ----------------------------
    # Lists and caches live in $WORK, so the system's apt state is neither read nor changed.
    codename="$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")"
    keyring=/usr/share/keyrings/debian-archive-keyring.gpg
    {
        echo "deb-src [signed-by=$keyring] http://deb.debian.org/debian $codename main"
        echo "deb-src [signed-by=$keyring] http://deb.debian.org/debian $codename-updates main"
        echo "deb-src [signed-by=$keyring] http://deb.debian.org/debian-security $codename-security main"
    } >"$WORK/sources.list"
    mkdir -p "$WORK/lists/partial" "$WORK/cache/archives/partial" "$WORK/src"
    if [ "$(id -u)" -eq 0 ] && id _apt >/dev/null 2>&1; then
        # apt downloads as _apt when run as root.
        chmod 755 "$WORK"
        chown -R _apt "$WORK/lists/partial" "$WORK/cache/archives/partial" "$WORK/src"
    fi
    apt=(apt-get -qq
        -o "Dir::Etc::sourcelist=$WORK/sources.list" -o Dir::Etc::sourceparts=/dev/null
        -o "Dir::State::Lists=$WORK/lists" -o "Dir::Cache=$WORK/cache")
    note "fetching Debian's vips source package ($codename)"
    "${apt[@]}" update
    (cd "$WORK/src" && "${apt[@]}" source --download-only vips >/dev/null)
    dsc="$(ls "$WORK"/src/vips_*.dsc)"
    debian_version="$(sed -n 's/^Version: //p' "$dsc")"
    [ "${debian_version%-*}" = "$VERSION" ] \
        || die "Debian has vips $debian_version, not $VERSION (set LIBVIPS_VERSION to build it)"
    # Unpacks and applies debian/patches (the security fixes). apt has checked the files
    # against the signed archive index; dpkg-source checks them against the .dsc and only
    # warns that it cannot check the uploader's signature without debian-keyring.
    (cd "$WORK" && dpkg-source -x "$dsc" vips >/dev/null 2>"$WORK/dpkg-source.log") \
        || { cat "$WORK/dpkg-source.log" >&2; die "dpkg-source failed"; }

    # --- configure, build, install ----------------------------------------------------------
    # Debian's hardening flags (hardening=+all, as debian/rules has), without its -g -O2: the
    # release buildtype gives -O3 and, through libvips' meson.build, G_DISABLE_CHECKS,
    # G_DISABLE_CAST_CHECKS and G_DISABLE_ASSERT, which Debian's plain buildtype leaves on;
    # measured: ~8 ms less wall and ~15 ms less CPU for one 2184x270 PNG render.
    export DEB_BUILD_MAINT_OPTIONS=hardening=+all
    CFLAGS="$(dpkg-buildflags --get CFLAGS | sed -e 's/\(^\| \)-g\( \|$\)/ /' -e 's/\(^\| \)-O2\( \|$\)/ /')"
    CPPFLAGS="$(dpkg-buildflags --get CPPFLAGS)"
    LDFLAGS="$(dpkg-buildflags --get LDFLAGS)"
    export CFLAGS="$CFLAGS $CPPFLAGS" LDFLAGS
    note "building libvips $debian_version ($LIBRARY, orc $ORC) into $PREFIX"
    rm -rf "$PREFIX"
    meson setup "$WORK/build" "$WORK/vips" --prefix="$PREFIX" --libdir=lib \
        "${MESON_OPTIONS[@]}" >"$WORK/configure.log" 2>&1 \
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
    printf '%s\n%s\n' "$CONFIG" "debian $debian_version, built $(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$STAMP"
    note "installed libvips $debian_version into $PREFIX"
fi

echo "PKG_CONFIG_PATH=$PCDIR"
if [ "$LIBRARY" = shared ]; then
    echo "# link with an rpath, e.g. swift build -Xlinker -rpath -Xlinker $PREFIX/lib"
fi
