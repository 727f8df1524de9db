#!/usr/bin/env bash
# Reads `swift test` (XCTest) output and prints its closing lines:
#   skipped: <Suite.test>: <the XCTSkip's reason>        (one line per skipped test)
#   xctest: <XCTest's own overall line>
#   tests: P passed, F failed, K skipped
# F counts the failed test cases (XCTest's "failures" counts assertions), K the skipped ones, and
# P = executed - F - K. The counts come from the overall suite ("Test Suite 'All tests'"), never
# from one suite's line. Exits 1 when the output holds no overall line (a crash, or no test run).
#   scripts/test-summary.sh [LOG]       (standard input without LOG)
set -euo pipefail
awk '
    /^Test Suite .All tests. (passed|failed) at/ { overall = 1; next }
    overall && /^[[:space:]]*Executed [0-9]+ tests?, with/ { line = $0; overall = 0 }
    /^Test Case .* failed \(/ { failed_cases++ }
    / : Test skipped - / {
        name = $0; sub(/ : Test skipped - .*/, "", name); sub(/.*: /, "", name)
        reason = $0; sub(/.* : Test skipped - /, "", reason)
        skips[++skip_count] = name ": " reason
    }
    END {
        if (line == "") { print "test-summary: no overall XCTest line (no test ran, or the run crashed)" > "/dev/stderr"; exit 1 }
        sub(/^[[:space:]]+/, "", line)
        executed = line; sub(/^Executed /, "", executed); sub(/ .*/, "", executed)
        skipped = 0
        if (match(line, /[0-9]+ tests? skipped/)) { skipped = substr(line, RSTART); sub(/ .*/, "", skipped) }
        failures = line; sub(/.* and /, "", failures); sub(/.*with /, "", failures); sub(/ .*/, "", failures)
        failed = failed_cases + 0
        if (failed == 0 && failures > 0) failed = failures
        for (i = 1; i <= skip_count; i++) print "skipped: " skips[i]
        print "xctest: " line
        printf "tests: %d passed, %d failed, %d skipped\n", executed - failed - skipped, failed, skipped
    }' "${1:-/dev/stdin}"
