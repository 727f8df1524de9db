#!/usr/bin/env bash
# Fetches the libvips the binaries load by default: the libvips maintainers' own prebuilt build
# from PyPI's pyvips-binary wheel, pinned with its hashes in scripts/libvips-wheel.txt. pip
# downloads it (--only-binary=:all: --no-deps --require-hashes); the one library inside it,
# libvips-<hash>.so.42, is taken out into PREFIX/lib, beside a vips.pc that compiles against
# bookworm's libvips-dev headers (unpacked from its package into PREFIX/include, or copied from
# /usr/include when libvips-dev is installed: the system libvips itself is not needed) and links
# only that library (no system GLib: two GLibs in one process break GType). No compiling. When it
# cannot be done (no network, a hash mismatch, an unknown processor), it says so in one warning,
# installs the system libvips (scripts/install-deps.sh system) and exits 0: the build then uses
# the system libvips.
#
#   scripts/fetch-libvips.sh [PREFIX]       (make deps; PREFIX defaults to .build/libvips)
#
# Idempotent: does nothing, and needs no network, when PREFIX already holds the pinned wheel's
# library, or when an earlier attempt for the same pin fell back (it warns again; remove PREFIX
# to try again). An installed library is kept when a newer pin cannot be fetched.
#
# Environment:
#   LIBVIPS_UPDATE=1   move the pin to the newest pyvips-binary on PyPI: download its x86_64 and
#                      aarch64 wheels, rewrite scripts/libvips-wheel.txt with their sha256, then
#                      install as usual (commit the rewritten file)
#
# Prints, on standard output, the PKG_CONFIG_PATH to compile with (nothing on the fallback).
set -euo pipefail

REPO_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REQUIREMENTS="$REPO_DIR/scripts/libvips-wheel.txt"
PREFIX="${1:-$REPO_DIR/.build/libvips}"
PACKAGE="pyvips-binary"
# The wheels' platform tag, and the processors the pin holds hashes for, in the file's order.
MANYLINUX="manylinux_2_28"
ARCHES=(x86_64 aarch64)

note() { echo "fetch-libvips: $*" >&2; }
die() { note "$*"; exit 1; }

mkdir -p "$PREFIX"
PREFIX="$(cd "$PREFIX" && pwd)"
LIBDIR="$PREFIX/lib"
PCDIR="$LIBDIR/pkgconfig"
STAMP="$PREFIX/wheel.stamp"
FALLBACK="$PREFIX/FALLBACK"
[ -f "$STAMP" ] || [ -f "$FALLBACK" ] || [ -z "$(ls -A "$PREFIX")" ] \
    || die "$PREFIX is neither empty nor a folder made by this script"

# The pin as one line: "pyvips-binary==X.Y.Z --hash=sha256:... --hash=sha256:...".
pin() { sed -e 's/#.*//' "$REQUIREMENTS" | tr -s ' \\\n' ' ' | sed -e 's/^ //' -e 's/ $//'; }
installed() {
    [ -f "$STAMP" ] && [ -f "$PCDIR/vips.pc" ] && [ -f "$LIBDIR/$(sed -n 2p "$STAMP")" ] \
        && [ -f "$PREFIX/include/vips/vips.h" ]
}

# --- up to date, or fallen back before for this pin: nothing to do, no network ------------------
if [ -z "${LIBVIPS_UPDATE:-}" ]; then
    if installed && [ "$(head -n 1 "$STAMP")" = "$(pin)" ]; then
        note "libvips $(sed -n 3p "$STAMP") in $LIBDIR ($(sed -n 2p "$STAMP"))"
        echo "PKG_CONFIG_PATH=$PCDIR"
        exit 0
    fi
    if [ -f "$FALLBACK" ] && [ "$(head -n 1 "$FALLBACK")" = "$(pin)" ]; then
        "$REPO_DIR/scripts/install-deps.sh" system >&2
        note "warning: $(sed -n 2p "$FALLBACK") (remove $PREFIX to try again)"
        exit 0
    fi
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/fetch-libvips.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
# From here on, a failure falls back to the system libvips with one warning line.
fall_back() {
    local reason="$1" system
    if installed; then
        note "warning: $reason; keeping libvips $(sed -n 3p "$STAMP") ($(sed -n 2p "$STAMP"))"
        echo "PKG_CONFIG_PATH=$PCDIR"
        exit 0
    fi
    "$REPO_DIR/scripts/install-deps.sh" system >&2 \
        || die "$reason, and the system libvips (libvips-dev) could not be installed either"
    system="$(env -u PKG_CONFIG_PATH pkg-config --modversion vips 2>/dev/null || echo "(not found)")"
    rm -rf "$PREFIX"
    mkdir -p "$PREFIX"
    local details=""
    if [ -n "${FAILED_LOG:-}" ]; then
        cp "$FAILED_LOG" "$PREFIX/fallback.log"
        details=" (its output: $PREFIX/fallback.log)"
    fi
    printf '%s\n%s%s; using the system libvips %s instead: slower start-up (about 100 more shared libraries to map) and, before 8.15, resampling without Highway SIMD\n' \
        "$(pin)" "$reason" "$details" "$system" >"$FALLBACK"
    note "warning: $(sed -n 2p "$FALLBACK")"
    exit 0
}

case "$(uname -m)" in
    x86_64|amd64) arch=x86_64 ;;
    aarch64|arm64) arch=aarch64 ;;
    *) fall_back "$PACKAGE has no wheel for this processor ($(uname -m))" ;;
esac

# pip: the one on PATH, else Debian's (python3-pip, installed when missing).
PYTHON=""
find_pip() {
    local python
    for python in python3 /usr/bin/python3; do
        if "$python" -m pip --version >/dev/null 2>&1; then PYTHON="$python"; return 0; fi
    done
    return 1
}
if ! find_pip; then
    "$REPO_DIR/scripts/install-deps.sh" pip >&2 || fall_back "python3-pip could not be installed"
    find_pip || fall_back "no pip after installing python3-pip"
fi
pip() {
    PIP_DISABLE_PIP_VERSION_CHECK=1 "$PYTHON" -m pip "$@" --no-input --progress-bar off \
        --timeout 20 --retries 2
}
# Downloads into $2 one platform's wheel of the requirement(s) in the remaining arguments.
download() {
    local platform_arch="$1" dest="$2"
    shift 2
    pip download --only-binary=:all: --no-deps --platform "${MANYLINUX}_$platform_arch" \
        --dest "$dest" "$@"
}
# Why pip failed, in a few words, from its output.
pip_failure() {
    if grep -q "DO NOT MATCH THE HASHES" "$1"; then echo "the downloaded wheel does not match the pinned sha256"
    elif grep -qiE "NewConnectionError|ConnectTimeout|ReadTimeout|timed out|name resolution|ProxyError|SSLError|Max retries" "$1"
    then echo "PyPI could not be reached"
    elif grep -qi "no matching distribution\|could not find a version" "$1"; then echo "PyPI has no such wheel"
    else echo "pip failed"; fi
}

# --- LIBVIPS_UPDATE=1: the newest release, its hashes into the requirements file ---------------
if [ -n "${LIBVIPS_UPDATE:-}" ]; then
    note "looking for the newest $PACKAGE"
    hashes=()
    version=""
    for each in "${ARCHES[@]}"; do
        mkdir -p "$WORK/update-$each"
        spec="$PACKAGE${version:+==$version}"
        if ! download "$each" "$WORK/update-$each" "$spec" >"$WORK/update.log" 2>&1; then
            FAILED_LOG="$WORK/update.log"
            fall_back "LIBVIPS_UPDATE, $spec for $each: $(pip_failure "$WORK/update.log")"
        fi
        wheel="$(find "$WORK/update-$each" -name '*.whl' | head -n 1)"
        [ -n "$wheel" ] || fall_back "LIBVIPS_UPDATE: pip left no wheel for $each"
        # pyvips_binary-X.Y.Z-TAGS.whl
        version="$(basename "$wheel" | cut -d- -f2)"
        hashes+=("$(sha256sum "$wheel" | cut -d' ' -f1)")
    done
    old="$(pin)"
    {
        sed -n '/^#/p' "$REQUIREMENTS"
        echo "$PACKAGE==$version \\"
        echo "    --hash=sha256:${hashes[0]} \\"
        echo "    --hash=sha256:${hashes[1]}"
    } >"$WORK/requirements.txt"
    cat "$WORK/requirements.txt" >"$REQUIREMENTS"
    if [ "$(pin)" = "$old" ]; then note "the pin is already the newest: $PACKAGE $version"
    else note "pinned $PACKAGE $version in ${REQUIREMENTS#"$REPO_DIR"/} (commit it)"; fi
    if installed && [ "$(head -n 1 "$STAMP")" = "$(pin)" ]; then
        echo "PKG_CONFIG_PATH=$PCDIR"
        exit 0
    fi
fi

# --- download against the pinned hashes, take the library out ---------------------------------
version="$(pin | sed -n "s/^$PACKAGE==\([^ ]*\).*/\1/p")"
[ -n "$version" ] || die "no $PACKAGE==VERSION line in $REQUIREMENTS"
note "downloading $PACKAGE $version ($MANYLINUX $arch)"
mkdir -p "$WORK/wheel"
if ! download "$arch" "$WORK/wheel" --require-hashes -r "$REQUIREMENTS" >"$WORK/pip.log" 2>&1; then
    FAILED_LOG="$WORK/pip.log"
    fall_back "$PACKAGE $version: $(pip_failure "$WORK/pip.log")"
fi
wheel="$(find "$WORK/wheel" -name '*.whl' | head -n 1)"
[ -n "$wheel" ] || fall_back "pip left no $PACKAGE wheel"
mkdir -p "$WORK/lib"
if ! library="$("$PYTHON" - "$wheel" "$WORK/lib" 2>"$WORK/unpack.log" <<'PY'
import os, shutil, sys, zipfile
wheel, dest = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as archive:
    names = [n for n in archive.namelist()
             if os.path.basename(n).startswith("libvips-") and n.endswith(".so.42")]
    if len(names) != 1:
        sys.exit("expected one libvips-*.so.42 in %s, found %d" % (os.path.basename(wheel), len(names)))
    target = os.path.join(dest, os.path.basename(names[0]))
    with archive.open(names[0]) as source, open(target, "wb") as out:
        shutil.copyfileobj(source, out)
    os.chmod(target, 0o755)
    print(os.path.basename(target))
PY
)"; then
    fall_back "$(tail -n 1 "$WORK/unpack.log")"
fi

# The headers: bookworm's libvips-dev (libvips keeps its C API and ABI across 8.x; operation
# options are strings). Copied when it is installed, else unpacked from its package: apt-get
# download fetches it alone, checked by apt against the signed index, none of its dependencies.
mkdir -p "$WORK/include"
if [ -f /usr/include/vips/vips.h ]; then
    cp -a /usr/include/vips "$WORK/include/"
else
    note "unpacking the libvips headers from Debian's libvips-dev"
    apt_download() { (cd "$WORK" && apt-get download -qq -o APT::Sandbox::User="$(id -un)" libvips-dev) >"$WORK/apt.log" 2>&1; }
    if ! apt_download; then
        sudo=""
        [ "$(id -u)" -eq 0 ] || sudo="sudo"
        $sudo apt-get update -qq >"$WORK/apt-update.log" 2>&1 || true
        apt_download || { FAILED_LOG="$WORK/apt.log"; fall_back "apt could not download libvips-dev for its headers"; }
    fi
    deb="$(find "$WORK" -maxdepth 1 -name 'libvips-dev_*.deb' | head -n 1)"
    mkdir -p "$WORK/deb"
    dpkg-deb -x "$deb" "$WORK/deb" && [ -f "$WORK/deb/usr/include/vips/vips.h" ] \
        || fall_back "no libvips headers in $(basename "$deb")"
    cp -a "$WORK/deb/usr/include/vips" "$WORK/include/"
fi
# Links only the wheel's library: -l: names its file, so the system's libvips.so can never be
# picked instead, and no -lglib-2.0/-lgobject-2.0 (the wheel exports GLib and GObject). The GLib
# headers are libglib2.0-dev's. (-pthread dropped: SwiftPM refuses it in a pkg-config file, and
# the toolchain links libpthread.)
cflags="$(pkg-config --cflags glib-2.0 gobject-2.0 gio-2.0 2>/dev/null)" \
    || fall_back "the GLib headers (libglib2.0-dev) are not installed"
cflags="$(echo "$cflags" | sed -e 's/\(^\| \)-pthread\( \|$\)/ /g' -e 's/^ *//' -e 's/ *$//')"
mkdir -p "$WORK/lib/pkgconfig"
cat >"$WORK/lib/pkgconfig/vips.pc" <<EOF
prefix=$PREFIX
libdir=\${prefix}/lib

Name: vips
Description: libvips $version from the $PACKAGE wheel, with bookworm's libvips-dev headers
Version: $version
Libs: -L\${libdir} -l:$library
Cflags: -I\${prefix}/include $cflags
EOF
rm -rf "$PREFIX"
mkdir -p "$PREFIX"
cp -a "$WORK/lib" "$LIBDIR"
cp -a "$WORK/include" "$PREFIX/include"
printf '%s\n%s\n%s\n' "$(pin)" "$library" "$version" >"$STAMP"
note "installed libvips $version ($library, from $(basename "$wheel")) into $LIBDIR"
echo "PKG_CONFIG_PATH=$PCDIR"
