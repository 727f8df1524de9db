#!/usr/bin/env bash
# The JSON Schemas of schemas/ against real outputs of the debug build and of its service
# (scripts/check-schemas.py), with `jsonschema` from PyPI in the project's venv (scripts/python-tools.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lint-steps.sh
need_python_tools check-schemas jsonschema
. scripts/libvips-env.sh
tool="$SWIFT_SCRATCH/debug/creative-tool"
[ -x "$tool" ] || swift build --scratch-path "$SWIFT_SCRATCH" --product creative-tool >&2
python3 scripts/check-schemas.py "$tool"
