#!/usr/bin/env bash
# The whole test suite: build, every XCTest target (unit tests of each library, end-to-end tests
# of the built binary and of the HTTP service), the specs, the Dockerfile lint. Ends with one
# line "N passed, M failed" for the XCTest cases.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .build
swift build
status=0
swift test --disable-swift-testing 2>&1 | tee .build/test.log || status=$?
scripts/check-specs.sh || status=$?
scripts/lint-dockerfile.sh || status=$?
summary=$(grep -E "^[[:space:]]*Executed [0-9]+ tests?, with [0-9]+ failures?" .build/test.log | tail -n 1 || true)
executed=$(sed -E 's/.*Executed ([0-9]+) tests?.*/\1/' <<<"$summary")
failed=$(sed -E 's/.*with ([0-9]+) failures?.*/\1/' <<<"$summary")
if [ -z "$summary" ]; then
    echo "no test summary found" >&2
    exit 1
fi
echo "tests: $((executed - failed)) passed, $failed failed"
exit "$status"
