# Sourced by the Makefile's recipes and the scripts that build: the environment that compiles
# against the headers of the libvips the binaries will load.
#   LIBVIPS=minimal|system . scripts/libvips-env.sh        (default: minimal)
# Sets
#   CREATIVE_LIBVIPS  read by Package.swift: which library search path the binaries get
#   SWIFT_SCRATCH     the build folder: .build for the minimal libvips, .build/system for the
#                     system one, so the two builds sit side by side
#   PKG_CONFIG_PATH   the minimal libvips' own, when scripts/build-libvips.sh has built it
#                     (when it fell back, the system's libvips-dev is found as usual)
# shellcheck shell=bash
case "${LIBVIPS:-minimal}" in
    minimal)
        export CREATIVE_LIBVIPS=minimal SWIFT_SCRATCH=.build
        _minimal_pc="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.build/libvips/lib/pkgconfig"
        if [ -f "$_minimal_pc/vips.pc" ]; then
            export PKG_CONFIG_PATH="$_minimal_pc${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
        fi
        unset _minimal_pc ;;
    system) export CREATIVE_LIBVIPS=system SWIFT_SCRATCH=.build/system ;;
    *) echo "LIBVIPS must be minimal or system, not '$LIBVIPS'" >&2; return 64 2>/dev/null || exit 64 ;;
esac
