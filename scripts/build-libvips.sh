#!/usr/bin/env bash
# Builds a minimal libvips, with Highway for its SIMD paths, from Debian's own source packages
# (Debian's patches included) and installs it into a project-local prefix. When that cannot be
# done, it says so in one warning and exits 0: the build then uses the system libvips.
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
# Why trixie's 8.16 rather than bookworm's 8.14: 8.16 resamples (reduceh/reducev), converts and
# composites with Highway SIMD; 8.14's horizontal reduce is scalar C. Highway (bookworm's 1.0.3
# is older than libvips accepts) is built first as a static, position-independent library, so
# libvips.so carries it and nothing more is needed at run time. Both build against bookworm's
# own -dev packages.
#
# Where the sources come from: apt itself, in a private state (its own sources file and lists
# under the prefix's work folder; the system's apt configuration is read, never changed). The
# archive URIs are the ones this machine's apt already uses (/etc/apt/sources.list and
# sources.list.d, one-line and deb822 forms): the entry for this release's codename gives the
# main archive, the one for CODENAME-security the security archive. deb-src lines for trixie and
# trixie-security are added with signed-by the Debian archive keyring, and `apt-get source
# --download-only` fetches the newest 8.16.x vips and the newest highway. apt checks every file
# against the signed Sources index, and dpkg-source checks them against the .dsc: no hash is
# kept here, and a new Debian security revision is picked up by LIBVIPS_UPDATE=1.
#
# Idempotent: does nothing, and needs no network, when PREFIX already holds a build with these
# options (the stamp records the exact revisions), or when an earlier attempt fell back to the
# system libvips (the stamp says why). Installs the missing apt build dependencies (sudo only
# when not root).
#
# Environment:
#   LIBVIPS_UPDATE=1       fetch the newest revisions again and rebuild if they changed; also
#                          retries after a fallback
#   LIBVIPS_FORCE=1        rebuild even when PREFIX is up to date
#   LIBVIPS_SOURCES_URI    the Debian archive to take trixie's sources from, instead of the
#                          machine's (e.g. a local mirror); the security suite is then skipped
#                          unless LIBVIPS_SECURITY_URI is given too
#   LIBVIPS_SECURITY_URI   the Debian security archive, instead of the machine's
#   LIBVIPS_SOURCES_DIR    build offline from a folder that already holds the vips and highway
#                          .dsc files and their files (apt is not used; you vouch for them)
#   LIBVIPS_LIBRARY        shared (default) or static. A static build rewrites vips.pc so that a
#                          plain `pkg-config --libs vips` links every dependency. Caveat: SwiftPM
#                          puts -L/usr/lib/<triplet> (from other pkg-config packages) before this
#                          prefix, so while libvips-dev is installed its libvips.so wins over the
#                          libvips.a here; the shared build with an rpath has no such catch.
#
# Prints, on standard output, the PKG_CONFIG_PATH to compile with (nothing on the fallback).
set -euo pipefail

REPO_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PREFIX="${1:-$REPO_DIR/.build/libvips}"
LIBRARY="${LIBVIPS_LIBRARY:-shared}"
VIPS_SERIES="8.16"
SOURCE_SUITE="trixie"
KEYRING="/usr/share/keyrings/debian-archive-keyring.gpg"

note() { echo "build-libvips: $*" >&2; }
die() { note "$*"; exit 1; }

case "$LIBRARY" in shared|static) ;; *) die "LIBVIPS_LIBRARY must be shared or static" ;; esac
mkdir -p "$PREFIX"
PREFIX="$(cd "$PREFIX" && pwd)"
PCDIR="$PREFIX/lib/pkgconfig"
STAMP="$PREFIX/share/build-libvips.stamp"
FALLBACK="$PREFIX/FALLBACK"
# The prefix is emptied before each install: only ever one this script made, or an empty one.
[ -f "$STAMP" ] || [ -f "$FALLBACK" ] || [ -z "$(ls -A "$PREFIX")" ] \
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
CONFIG="vips=$VIPS_SERIES.x ${MESON_OPTIONS[*]}"

# --- up to date, or fallen back before: nothing to do, no network ---------------------------
if [ -z "${LIBVIPS_FORCE:-}${LIBVIPS_UPDATE:-}" ]; then
    if [ -f "$STAMP" ] && [ "$(head -n 1 "$STAMP")" = "$CONFIG" ] \
        && [ -n "$(PKG_CONFIG_PATH="$PCDIR" pkg-config --modversion vips 2>/dev/null)" ]; then
        note "libvips already in $PREFIX ($(sed -n 2p "$STAMP"))"
        echo "PKG_CONFIG_PATH=$PCDIR"
        exit 0
    fi
    if [ -f "$FALLBACK" ]; then
        note "warning: using the system libvips: $(cat "$FALLBACK") (LIBVIPS_UPDATE=1 tries again)"
        exit 0
    fi
fi

# From here on, a failure falls back to the system libvips with one warning.
WORK="$(mktemp -d "${TMPDIR:-/tmp}/build-libvips.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
fall_back() {
    local reason="$1"
    local system
    system="$(pkg-config --modversion vips 2>/dev/null || echo "not installed")"
    # Keep an installed build (an update that failed leaves the working prefix in place).
    if [ -f "$STAMP" ] && [ -n "$(PKG_CONFIG_PATH="$PCDIR" pkg-config --modversion vips 2>/dev/null)" ]; then
        note "warning: $reason; keeping $(sed -n 2p "$STAMP")"
        echo "PKG_CONFIG_PATH=$PCDIR"
        exit 0
    fi
    rm -rf "$PREFIX"
    mkdir -p "$PREFIX"
    local details=""
    if [ -n "${FAILED_LOG:-}" ]; then
        cp "$FAILED_LOG" "$PREFIX/fallback.log"
        details=" (its output: $PREFIX/fallback.log)"
    fi
    printf '%s%s; system libvips %s: slower start-up (it maps about twice as many shared libraries) and slower resampling\n' \
        "$reason" "$details" "$system" >"$FALLBACK"
    note "warning: using the system libvips: $(cat "$FALLBACK")"
    exit 0
}
# Runs a step with its output in a log; on failure keeps the log and falls back.
step() {
    local what="$1" log="$WORK/$2.log"
    shift 2
    "$@" >"$log" 2>&1 && return 0
    FAILED_LOG="$log"
    fall_back "$what failed"
}

# --- build dependencies from bookworm ---------------------------------------------------------
packages=(
    dpkg-dev xz-utils gcc g++ libc6-dev pkgconf meson ninja-build cmake debian-archive-keyring
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
    step "installing the build dependencies" apt-install bash -c "$sudo apt-get update -qq \
        && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends ${missing[*]}"
fi

# --- the sources ----------------------------------------------------------------------------------
# Prints "URI SUITE" for every deb entry of this machine's apt sources, one-line and deb822 alike.
apt_entries() {
    local file
    for file in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -f "$file" ] || continue
        # deb [options] URI SUITE COMPONENT...
        sed -e 's/#.*//' -e 's/\[[^]]*\]//' "$file" | awk '$1 == "deb" && NF >= 3 {print $2, $3}'
    done
    for file in /etc/apt/sources.list.d/*.sources; do
        [ -f "$file" ] || continue
        # Stanzas separated by blank lines; Types, URIs and Suites may list several values.
        awk 'function flush() { if (deb) for (u in uris) for (s in suites) print uris[u], suites[s]
                                deb = 0; delete uris; delete suites }
             /^[ \t]*#/ { next }
             /^[ \t]*$/ { flush(); next }
             tolower($1) == "types:" { for (i = 2; i <= NF; i++) if ($i == "deb") deb = 1 }
             tolower($1) == "uris:" { for (i = 2; i <= NF; i++) uris[i] = $i }
             tolower($1) == "suites:" { for (i = 2; i <= NF; i++) suites[i] = $i }
             tolower($1) == "enabled:" && tolower($2) == "no" { deb = 0; delete uris }
             END { flush() }' "$file"
    done
}

# The newest version of a source package in the private apt state, optionally of one series.
newest() {
    local best="" version
    for version in $(apt-cache "${APT_OPTIONS[@]}" showsrc "$1" 2>/dev/null \
                     | awk -v series="${2:-}" '$1 == "Version:" && index($2, series) == 1 {print $2}'); do
        if [ -z "$best" ] || dpkg --compare-versions "$version" gt "$best"; then best="$version"; fi
    done
    echo "$best"
}

# Sets vips_version and highway_version to the newest in trixie's signed source index, read
# through a private apt state, and the APT_OPTIONS that reach it.
find_with_apt() {
    local codename main_uri="${LIBVIPS_SOURCES_URI:-}" security_uri="${LIBVIPS_SECURITY_URI:-}"
    codename="$(. /etc/os-release && echo "${VERSION_CODENAME:-}")"
    if [ -z "$main_uri" ]; then
        [ -n "$codename" ] || fall_back "this system names no release codename in /etc/os-release"
        main_uri="$(apt_entries | awk -v s="$codename" '$2 == s {print $1; exit}')"
        [ -n "$security_uri" ] \
            || security_uri="$(apt_entries | awk -v s="$codename-security" '$2 == s {print $1; exit}')"
    fi
    [ -n "$main_uri" ] || fall_back "no Debian archive for '$codename' in this machine's apt sources"
    local apt_dir="$WORK/apt"
    mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
    {
        echo "deb-src [signed-by=$KEYRING] $main_uri $SOURCE_SUITE main"
        [ -z "$security_uri" ] || echo "deb-src [signed-by=$KEYRING] $security_uri $SOURCE_SUITE-security main"
    } >"$apt_dir/sources.list"
    APT_OPTIONS=(
        -o "Dir::Etc::SourceList=$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
        -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache"
        -o Dir::State::status=/dev/null -o Debug::NoLocking=1 -o APT::Sandbox::User=root
        -o Acquire::Retries=2 -o Acquire::http::Timeout=30 -o Acquire::https::Timeout=30
    )
    note "reading $SOURCE_SUITE's source index through apt"
    step "reading the $SOURCE_SUITE source index (apt-get update)" apt-update \
        apt-get "${APT_OPTIONS[@]}" -o APT::Update::Error-Mode=any update
    vips_version="$(newest vips "$VIPS_SERIES.")"
    highway_version="$(newest highway)"
    [ -n "$vips_version" ] || fall_back "no vips $VIPS_SERIES.x source package in $SOURCE_SUITE"
    [ -n "$highway_version" ] || fall_back "no highway source package in $SOURCE_SUITE"
}

# Offline: the .dsc files and their files were downloaded beforehand into LIBVIPS_SOURCES_DIR
# (the caller vouches for them; dpkg-source still checks each file against its .dsc).
copy_sources_dir() {
    cp "$LIBVIPS_SOURCES_DIR"/* "$WORK/src/" 2>/dev/null || fall_back "nothing to copy from $LIBVIPS_SOURCES_DIR"
    local vips_dsc highway_dsc
    vips_dsc="$(find "$WORK/src" -name "vips_$VIPS_SERIES.*.dsc" | sort -V | tail -n 1)"
    highway_dsc="$(find "$WORK/src" -name 'highway_*.dsc' | sort -V | tail -n 1)"
    [ -n "$vips_dsc" ] && [ -n "$highway_dsc" ] \
        || fall_back "no vips $VIPS_SERIES.x or highway .dsc in $LIBVIPS_SOURCES_DIR"
    vips_version="$(basename "$vips_dsc" .dsc | cut -d_ -f2)"
    highway_version="$(basename "$highway_dsc" .dsc | cut -d_ -f2)"
}

mkdir -p "$WORK/src"
if [ -n "${LIBVIPS_SOURCES_DIR:-}" ]; then copy_sources_dir; else find_with_apt; fi
revisions="debian vips $vips_version, highway $highway_version"
if [ -z "${LIBVIPS_FORCE:-}" ] && [ -f "$STAMP" ] && [ "$(head -n 1 "$STAMP")" = "$CONFIG" ] \
    && sed -n 2p "$STAMP" | grep -qF "$revisions,"; then
    note "libvips in $PREFIX is the newest revision ($revisions)"
    echo "PKG_CONFIG_PATH=$PCDIR"
    exit 0
fi
if [ -z "${LIBVIPS_SOURCES_DIR:-}" ]; then
    note "fetching $revisions (verified by apt against the signed index)"
    cd "$WORK/src"
    step "downloading $revisions" apt-source \
        apt-get "${APT_OPTIONS[@]}" source --download-only "vips=$vips_version" "highway=$highway_version"
fi
# dpkg-source checks every file against its .dsc and applies debian/patches. It warns that it
# cannot check the maintainer's signature without debian-keyring: apt checked the .dsc itself.
for dsc in "vips_${vips_version#*:}.dsc" "highway_${highway_version#*:}.dsc"; do
    name="${dsc%%_*}"
    step "unpacking $dsc" "unpack-$name" dpkg-source -x "$WORK/src/$dsc" "$WORK/$name"
done

# --- configure, build, install ------------------------------------------------------------------
# Debian's hardening flags (hardening=+all, as debian/rules has), without its -g -O2: the release
# buildtype gives -O3 and, through libvips' meson.build, G_DISABLE_CHECKS, G_DISABLE_CAST_CHECKS
# and G_DISABLE_ASSERT, which Debian's plain buildtype leaves on.
export DEB_BUILD_MAINT_OPTIONS=hardening=+all
strip_debug() { sed -e 's/\(^\| \)-g\( \|$\)/ /' -e 's/\(^\| \)-O2\( \|$\)/ /'; }
CFLAGS="$(dpkg-buildflags --get CFLAGS | strip_debug)"
CXXFLAGS="$(dpkg-buildflags --get CXXFLAGS | strip_debug)"
CPPFLAGS="$(dpkg-buildflags --get CPPFLAGS)"
LDFLAGS="$(dpkg-buildflags --get LDFLAGS)"
export CFLAGS="$CFLAGS $CPPFLAGS" CXXFLAGS="$CXXFLAGS $CPPFLAGS" LDFLAGS
STAGE="$WORK/prefix"
note "building highway $highway_version (static)"
step "configuring highway" highway-configure cmake -S "$WORK/highway" -B "$WORK/highway-build" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$STAGE" -DCMAKE_INSTALL_LIBDIR=lib \
    -DBUILD_SHARED_LIBS=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DBUILD_TESTING=OFF \
    -DHWY_ENABLE_TESTS=OFF -DHWY_ENABLE_EXAMPLES=OFF -DHWY_ENABLE_CONTRIB=OFF -DHWY_ENABLE_INSTALL=ON
step "building highway" highway-build ninja -C "$WORK/highway-build" install
note "building libvips $vips_version ($LIBRARY)"
step "configuring libvips" vips-configure env PKG_CONFIG_PATH="$STAGE/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}" \
    meson setup "$WORK/build" "$WORK/vips" --prefix="$PREFIX" --libdir=lib "${MESON_OPTIONS[@]}"
step "building libvips" vips-build ninja -C "$WORK/build"
# Installed into the final prefix only now that everything built: a failed update keeps the old one.
rm -rf "$PREFIX"
step "installing libvips" vips-install meson install -C "$WORK/build" --strip
# Highway's static library and pkg-config file beside it: vips.pc names it as a private requirement.
cp -a "$STAGE/." "$PREFIX/"
mkdir -p "$PREFIX/share"

if [ "$LIBRARY" = static ]; then
    # SwiftPM reads only Requires and Libs: every dependency must be there. Meson already lists a
    # static library's dependencies as public; this makes sure of it. It also drops the
    # -DHAVE_CONFIG_H=1 that meson leaks into a static library's Cflags.
    pc="$PCDIR/vips.pc"
    requires_private="$(sed -n 's/^Requires.private: *//p' "$pc")"
    libs_private="$(sed -n 's/^Libs.private: *//p' "$pc")"
    [ -z "$requires_private" ] || sed -i "s|^Requires:.*|&, $requires_private|" "$pc"
    [ -z "$libs_private" ] || sed -i "s|^Libs:.*|& $libs_private|" "$pc"
    sed -i -e '/^Requires.private:/d' -e '/^Libs.private:/d' -e '/^Cflags:/s/ -DHAVE_CONFIG_H=1//' "$pc"
fi
printf '%s\n%s, built %s\n' "$CONFIG" "$revisions" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$STAMP"
note "installed libvips $vips_version into $PREFIX"
echo "PKG_CONFIG_PATH=$PCDIR"
