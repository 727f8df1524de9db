# Sourced, from the repository's top folder, by the Makefile's recipes (/bin/sh) and the scripts
# that build (bash): the environment that compiles against the headers of the libvips the binaries
# will load. POSIX sh: make runs recipes with /bin/sh.
#   LIBVIPS=wheel|system . scripts/libvips-env.sh          (default: wheel; minimal: wheel)
# Sets
#   CREATIVE_LIBVIPS  read by Package.swift: which library search path the binaries get
#   SWIFT_SCRATCH     the build folder: .build for the wheel's libvips, .build/system for the
#                     system one, so the two builds sit side by side
#   PKG_CONFIG_PATH   the wheel's vips.pc, when scripts/fetch-libvips.sh has installed it
#                     (when it fell back, the system's libvips-dev is found as usual)
# shellcheck shell=sh
if [ ! -f "$PWD/scripts/libvips-env.sh" ]; then
    echo "scripts/libvips-env.sh: source it from the repository's top folder, not $PWD" >&2
    return 64 2>/dev/null || exit 64
fi
case "${LIBVIPS:-wheel}" in
    wheel|minimal)
        export CREATIVE_LIBVIPS=wheel SWIFT_SCRATCH=.build
        if [ -f "$PWD/.build/libvips/lib/pkgconfig/vips.pc" ]; then
            PKG_CONFIG_PATH="$PWD/.build/libvips/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
            export PKG_CONFIG_PATH
        fi ;;
    system) export CREATIVE_LIBVIPS=system SWIFT_SCRATCH=.build/system ;;
    *) echo "LIBVIPS must be wheel or system, not '$LIBVIPS'" >&2; return 64 2>/dev/null || exit 64 ;;
esac
