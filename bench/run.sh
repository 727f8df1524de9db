#!/usr/bin/env bash
# The benchmarks: bench/bench.py (the harness of bench/harness/) on the project venv's Python,
# which has jsonschema for reading the tool's outputs through schemas/ (scripts/python-tools.sh).
#   bench/run.sh BINARY [SECTION...]       (make bench; make bench SECTIONS=startup,peers)
# bench/bench.py's docstring and docs/performance.md describe the sections, the variables and
# the results file.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="$(scripts/python-tools.sh jsonschema)" || {
    echo "bench: cannot install jsonschema into .build/venv (PyPI): the harness reads the tool's outputs through schemas/ with it" >&2
    exit 1
}
exec "$venv/python" bench/bench.py "$@"
