#!/usr/bin/env bash
# make loadtest: wrk against a local `creative-tool serve` for DURATION s (default 30) at 16
# connections on POST /v1/render (the 2184x270 test artwork into slot 390x61 @3x), with hostile
# traffic beside it (bench/abuse.py: garbage, truncated uploads, slow clients, oversized bodies).
# Prints requests/s, p50/p99 latency, non-2xx count and resident memory (start, after warm-up,
# after the run), and fails when a target is missed:
#   >= 60 renders/s, p99 < 150 ms, zero non-2xx, RSS after <= 1.5 x RSS after warm-up.
#   scripts/loadtest.sh [BIN] [DURATION]      (SERVE_ARGS="--workers 2" passes options to serve)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-.build/release/creative-tool}
DURATION=${2:-${DURATION:-30}}
CONNECTIONS=16
command -v wrk > /dev/null || scripts/install-deps.sh bench

. "$(dirname "$0")/serve-lib.sh"

start_service loadtest ${SERVE_ARGS:-}
url="http://127.0.0.1:$port"
rss() { awk '/^VmRSS/ {print $2 * 1024}' "/proc/$server/status"; }
mib() { awk -v b="$1" 'BEGIN {printf "%.1f MiB", b / 1048576}'; }

rss_start=$(rss)
echo "loadtest: service on 127.0.0.1:$port (pid $server), $(nproc) processors, RSS at start $(mib "$rss_start")"
wrk -t2 -c"$CONNECTIONS" -d5s -s bench/wrk-render.lua "$url" > /dev/null
rss_warm=$(rss)
echo "loadtest: after 5 s warm-up RSS $(mib "$rss_warm")"

python3 bench/abuse.py "$port" "$DURATION" > "$work/abuse.txt" &
abuse=$!
wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s bench/wrk-render.lua "$url" | tee "$work/wrk.txt"
wait "$abuse" || true
cat "$work/abuse.txt"
rss_after=$(rss)
result=$(grep '^RESULT' "$work/wrk.txt")
value() { echo "$result" | grep -o "$1=[0-9.]*" | cut -d= -f2; }
rps=$(value rps); p50=$(value p50_ms); p99=$(value p99_ms); non2xx=$(value non2xx); socket_errors=$(value socket_errors)
curl -s "$url/metrics" > "$work/metrics.txt" 2> /dev/null || true

kill -TERM "$server"
wait "$server" && stopped=0 || stopped=$?
server=""

echo
echo "== loadtest: POST /v1/render (2184x270 -> 390x61@3x), $CONNECTIONS connections, ${DURATION} s, with abuse traffic =="
echo "requests/s:   $rps   (target >= 60)"
echo "latency p50:  $p50 ms"
echo "latency p99:  $p99 ms   (target < 150)"
echo "non-2xx:      $non2xx   (target 0; socket errors $socket_errors)"
echo "RSS:          start $(mib "$rss_start"), after warm-up $(mib "$rss_warm"), after $(mib "$rss_after")   (target after <= 1.5 x warm-up)"
echo "SIGTERM exit: $stopped"
grep -E '^creative_http_errors_total|^creative_http_requests_aborted_total' "$work/metrics.txt" | sed 's/^/metrics:      /' || true

fail=0
awk -v v="$rps" 'BEGIN {exit !(v >= 60)}' || { echo "FAIL: under 60 renders/s"; fail=1; }
awk -v v="$p99" 'BEGIN {exit !(v < 150)}' || { echo "FAIL: p99 not under 150 ms"; fail=1; }
[ "$non2xx" -eq 0 ] && [ "$socket_errors" -eq 0 ] || { echo "FAIL: non-2xx or socket errors"; fail=1; }
awk -v a="$rss_after" -v w="$rss_warm" 'BEGIN {exit !(a <= 1.5 * w)}' || { echo "FAIL: memory grew over 1.5x"; fail=1; }
[ "$stopped" -eq 0 ] || { echo "FAIL: exit $stopped on SIGTERM"; fail=1; }
[ "$fail" -eq 0 ] && echo "loadtest: all targets met"
exit "$fail"
